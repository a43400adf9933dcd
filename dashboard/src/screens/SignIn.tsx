import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { ApiError, call, client } from '../api';
import { useWrite } from '../queries';
import { Field } from '../components/Field';
import { ErrorMessage } from '../components/Status';
import { Link, useRouter } from '../router';
import type { Session } from '../types';
import { PublicFrame } from './Public';
import { SignInCode, type SecondFactorKind } from './SignInCode';
import { passkeyRefused, passkeysSupported, signWithPasskey } from './account/passkeys';
import { useCapabilities } from '../capabilities';

/** What a sign-on that came back without a session means (docs/team.md, "Single sign-on"). */
const SSO_FAILURES: Record<string, string> = {
  denied: 'Single sign-on was cancelled or refused at your provider.',
  expired: 'That sign-on took too long or was used already. Try again.',
  refused: 'Your provider’s answer did not pass Quire’s checks. Try again, or ask your administrator.',
  email_unverified: 'Your provider did not confirm your email address, so Quire cannot sign you in with it.',
  unavailable: 'Your sign-on provider could not be reached. Try again in a moment.',
};

/** The reason a failed sign-on came back with, taken off the address so a reload does not show it again. */
function takeSsoFailure(): string | null {
  const reason = /sso-error=([a-z_]+)/.exec(window.location.hash)?.[1];
  if (reason === undefined) return null;
  window.history.replaceState(null, '', window.location.pathname + window.location.search);
  return SSO_FAILURES[reason] ?? 'Single sign-on did not sign you in. Try again.';
}

export function SignInScreen({ onSignedIn }: { onSignedIn(session: Session): void }) {
  const { navigate } = useRouter();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // Set by a right password of an account with a second factor: the code step answers it.
  const [challenge, setChallenge] = useState<{ token: string; factors: SecondFactorKind[] } | null>(null);
  const [notice, setNotice] = useState<string | null>(takeSsoFailure);
  const sso = useCapabilities().data?.sso ?? null;
  // Back from the code step, the Back button that had the focus is gone: the password field takes it.
  const [returned, setReturned] = useState(false);
  const signIn = useWrite(async (body: { email: string; password: string }) => {
    try {
      return await call(client.POST('/session', { body }), { quiet401: true });
    } catch (error) {
      // One message for every wrong pair: the server does not say which half was wrong, nor do we.
      if (error instanceof ApiError && error.status === 401) throw new Error('The email or password is not correct.');
      throw error;
    }
  });

  const withPasskey = useWrite(async () => {
    const optionsJSON = await call(client.POST('/session/passkey/options'));
    const credential = await signWithPasskey(optionsJSON);
    try {
      return await call(client.POST('/session/passkey', { body: { credential } }), { quiet401: true });
    } catch (error) {
      if (passkeyRefused(error))
        throw new Error('This passkey was not accepted. Sign in with your email and password, or try another passkey.');
      throw error;
    }
  });
  const signInWithPasskey = async () => {
    setNotice(null);
    signIn.setError(null);
    const session = await withPasskey.execute();
    if (session) onSignedIn(session);
  };

  // A brand-new server has nobody to sign in as: send the first visitor to setup instead.
  useEffect(() => {
    let live = true;
    call(client.GET('/setup')).then(
      (status) => live && status.needed && navigate('/setup', { replace: true }),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [navigate]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setNotice(null);
    const answer = await signIn.execute({ email: email.trim(), password });
    if (!answer) return;
    if ('challenge' in answer) {
      setPassword('');
      // `factors` is new: a server that does not send it has an authenticator app only.
      setChallenge({ token: answer.challenge, factors: answer.factors ?? [answer.secondFactor] });
    } else onSignedIn(answer);
  };

  const backToPassword = useCallback((message?: string) => {
    setChallenge(null);
    setNotice(message ?? null);
    setReturned(true);
  }, []);

  if (challenge !== null) {
    return (
      <PublicFrame title="Two-factor authentication">
        <SignInCode
          challenge={challenge.token}
          factors={challenge.factors}
          onSignedIn={onSignedIn}
          onBack={backToPassword}
        />
      </PublicFrame>
    );
  }

  return (
    <PublicFrame title="Sign in">
      <form onSubmit={submit} className="stack">
        {notice !== null && (
          <div className="notice notice-warn" role="alert">
            <p>{notice}</p>
          </div>
        )}
        <Field
          label="Email"
          type="email"
          autoComplete="username"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <Field
          label="Password"
          type="password"
          autoComplete="current-password"
          autoFocus={returned}
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        {signIn.error !== null && <ErrorMessage error={signIn.error} />}
        <button type="submit" className="button-primary" disabled={signIn.pending}>
          {signIn.pending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      {(sso !== null || passkeysSupported()) && (
        <div className="stack sso">
          <p className="hint">or</p>
          {passkeysSupported() && (
            <button type="button" disabled={withPasskey.pending} onClick={() => void signInWithPasskey()}>
              {withPasskey.pending ? 'Waiting for your passkey…' : 'Sign in with a passkey'}
            </button>
          )}
          {withPasskey.error !== null && <ErrorMessage error={withPasskey.error} />}
          {/* A navigation, not a fetch: the provider's pages take over the browser until it comes back. */}
          {sso !== null && (
            <a className="button" href="/api/v1/dashboard/oidc/start">
              Sign in with {sso.name}
            </a>
          )}
        </div>
      )}
      <p className="public-links">
        <Link to="/forgot-password">Forgot your password?</Link>
      </p>
    </PublicFrame>
  );
}
