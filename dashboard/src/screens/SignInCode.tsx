import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiError, call, client } from '../api';
import { useWrite } from '../queries';
import { Field } from '../components/Field';
import { FormAlert } from '../components/Status';
import { formFeedback } from '../form-errors';
import type { Session } from '../types';
import { refusedField, retryWords } from './account/second-factor';
import './account/second-factor.css';

/** Said on the password form when the challenge is gone (five minutes passed, or it was used elsewhere). */
export const CHALLENGE_EXPIRED = 'This sign-in has expired. Enter your password again.';

interface Props {
  challenge: string;
  onSignedIn(session: Session): void;
  /** Back to the password form; `message` says why when the server sent them there. */
  onBack(message?: string): void;
}

/** Sign-in's second step: a code from the authenticator app, or one of the recovery codes. */
export function SignInCode({ challenge, onSignedIn, onBack }: Props) {
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const verify = useWrite((body: { challenge: string; code: string }) =>
    // A 401 here is about the challenge, not a session that ended: there is none yet.
    call(client.POST('/session/second-factor', { body }), { quiet401: true }),
  );

  const wrong = refusedField(verify.error, 'code');
  const retry = retryWords(verify.error);
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
  const expired = verify.error instanceof ApiError && verify.error.status === 401;
  useEffect(() => {
    if (expired) onBack(CHALLENGE_EXPIRED);
  }, [expired, onBack]);

  const switchMode = () => {
    setRecovery((on) => !on);
    setCode('');
    verify.setError(null);
  };

  return (
    <form onSubmit={submit} className="stack sign-in-code">
      <p>
        {recovery
          ? 'Enter one of the recovery codes you saved when you set up your authenticator app.'
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
      <p className="public-links">
        <button type="button" className="link-button" onClick={switchMode}>
          {recovery ? 'Use your authenticator app instead' : 'Use a recovery code instead'}
        </button>
        <button type="button" className="link-button" onClick={() => onBack()}>
          Back
        </button>
      </p>
    </form>
  );
}
