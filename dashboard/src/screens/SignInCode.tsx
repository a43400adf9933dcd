import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiError, call, client } from '../api';
import { useWrite } from '../queries';
import { Field } from '../components/Field';
import { ErrorMessage, FormAlert } from '../components/Status';
import { formFeedback } from '../form-errors';
import type { Session } from '../types';
import { passkeyRefused, passkeysSupported, signWithPasskey, PasskeyPromptError } from './account/passkeys';
import { refusedField, retryWords } from './account/second-factor';
import './account/second-factor.css';

/** Said on the password form when the challenge is gone (five minutes passed, or it was used elsewhere). */
export const CHALLENGE_EXPIRED = 'This sign-in has expired. Enter your password again.';

export type SecondFactorKind = 'totp' | 'passkey';
type Mode = 'app' | 'recovery' | 'passkey';

interface Props {
  challenge: string;
  /** The second factors the account has, as the password's answer named them. */
  factors: readonly SecondFactorKind[];
  onSignedIn(session: Session): void;
  /** Back to the password form; `message` says why when the server sent them there. */
  onBack(message?: string): void;
}

/** Sign-in's second step: a code from the authenticator app, a passkey, or one of the recovery codes. */
export function SignInCode({ challenge, factors, onSignedIn, onBack }: Props) {
  const hasApp = factors.includes('totp');
  const hasPasskey = factors.includes('passkey') && passkeysSupported();
  const [mode, setMode] = useState<Mode>(hasApp || !hasPasskey ? 'app' : 'passkey');
  const recovery = mode === 'recovery';
  const [code, setCode] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const verify = useWrite((body: { challenge: string; code: string }) =>
    // A 401 here is about the challenge, not a session that ended: there is none yet.
    call(client.POST('/session/second-factor', { body }), { quiet401: true }),
  );

  const withPasskey = useWrite(async () => {
    const optionsJSON = await call(client.POST('/session/second-factor/passkey/options', { body: { challenge } }), {
      quiet401: true,
    });
    const credential = await signWithPasskey(optionsJSON);
    return call(client.POST('/session/second-factor/passkey', { body: { challenge, credential } }), { quiet401: true });
  });
  const usePasskey = async () => {
    const session = await withPasskey.execute();
    if (session) onSignedIn(session);
  };

  const wrong = refusedField(verify.error, 'code');
  const retry = retryWords(verify.error) ?? retryWords(withPasskey.error);
  const feedback =
    wrong || retry !== null
      ? { fields: {}, summary: null }
      : formFeedback(verify.error, { code: recovery ? 'Recovery code' : '6-digit code' });
  const fieldError = wrong
    ? recovery
      ? 'This recovery code is not right, or it has been used already.'
      : 'This code is not right. Enter the code your app shows now.'
    : feedback.fields.code;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // "123 456" as some apps show it; a recovery code keeps its dash (the server ignores case, spaces and dashes).
    const typed = recovery ? code.trim() : code.replace(/\s+/g, '');
    const session = await verify.execute({ challenge, code: typed });
    if (session) return onSignedIn(session);
    setCode('');
    input.current?.focus();
  };

  // An expired or spent challenge cannot be answered with any code: the password form starts a new one.
  const expired = [verify.error, withPasskey.error].some(
    (error) => error instanceof ApiError && error.status === 401 && !passkeyRefused(error),
  );
  useEffect(() => {
    if (expired) onBack(CHALLENGE_EXPIRED);
  }, [expired, onBack]);

  const switchTo = (next: Mode) => {
    setMode(next);
    setCode('');
    verify.setError(null);
    withPasskey.setError(null);
  };
  const others = ([hasApp && 'app', hasPasskey && 'passkey', 'recovery'] as const).filter(
    (other): other is Mode => other !== false && other !== mode,
  );
  const OTHER_LABELS: Record<Mode, string> = {
    app: 'Use your authenticator app instead',
    passkey: 'Use a passkey instead',
    recovery: 'Use a recovery code instead',
  };
  const links = (
    <p className="public-links">
      {others.map((other) => (
        <button key={other} type="button" className="link-button" onClick={() => switchTo(other)}>
          {OTHER_LABELS[other]}
        </button>
      ))}
      <button type="button" className="link-button" onClick={() => onBack()}>
        Back
      </button>
    </p>
  );

  if (mode === 'passkey') {
    const refusal =
      withPasskey.error instanceof PasskeyPromptError
        ? withPasskey.error.message
        : passkeyRefused(withPasskey.error)
          ? 'This passkey was not accepted. Try again, or use another way to sign in.'
          : null;
    return (
      <div className="stack sign-in-code">
        <p>Use the passkey you added to your account: your browser will ask you to confirm it is you.</p>
        {refusal !== null && (
          <div className="notice notice-error" role="alert">
            <p>{refusal}</p>
          </div>
        )}
        {retry !== null && (
          <div className="notice notice-error" role="alert">
            <p>Too many failed attempts. Try again {retry}.</p>
          </div>
        )}
        {refusal === null && retry === null && withPasskey.error !== null && !expired && (
          <ErrorMessage error={withPasskey.error} />
        )}
        <button
          type="button"
          className="button-primary"
          autoFocus
          disabled={withPasskey.pending}
          onClick={() => void usePasskey()}
        >
          {withPasskey.pending ? 'Waiting for your passkey…' : 'Use a passkey'}
        </button>
        {links}
      </div>
    );
  }

  return (
    <form onSubmit={submit} className="stack sign-in-code">
      <p>
        {recovery
          ? 'Enter one of the recovery codes you saved when you set up your second factor.'
          : 'Enter the 6-digit code from your authenticator app.'}
      </p>
      {recovery ? (
        <Field
          key="recovery"
          ref={input}
          label="Recovery code"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          autoFocus
          required
          maxLength={40}
          className="code-field"
          hint="Such as abcde-23456. Each recovery code works once."
          error={fieldError}
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      ) : (
        <Field
          key="app"
          ref={input}
          label="6-digit code"
          autoComplete="one-time-code"
          inputMode="numeric"
          autoFocus
          required
          maxLength={9}
          className="code-field"
          error={fieldError}
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      )}
      {retry !== null && (
        <div className="notice notice-error" role="alert">
          <p>Too many wrong codes. Try again {retry}.</p>
        </div>
      )}
      <FormAlert summary={feedback.summary} />
      <button type="submit" className="button-primary" disabled={verify.pending}>
        {verify.pending ? 'Verifying…' : 'Verify'}
      </button>
      {links}
    </form>
  );
}
