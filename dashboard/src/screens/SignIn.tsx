import { useEffect, useState, type FormEvent } from 'react';
import { ApiError, call, client } from '../api';
import { useWrite } from '../queries';
import { Field } from '../components/Field';
import { ErrorMessage } from '../components/Status';
import { Link, useRouter } from '../router';
import type { Session } from '../types';
import { PublicFrame } from './Public';

export function SignInScreen({ onSignedIn }: { onSignedIn(session: Session): void }) {
  const { navigate } = useRouter();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signIn = useWrite(async (body: { email: string; password: string }) => {
    try {
      return await call(client.POST('/session', { body }), { quiet401: true });
    } catch (error) {
      // One message for every wrong pair: the server does not say which half was wrong, nor do we.
      if (error instanceof ApiError && error.status === 401) throw new Error('The email or password is not correct.');
      throw error;
    }
  });

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
    const session = await signIn.execute({ email: email.trim(), password });
    if (session) onSignedIn(session);
  };

  return (
    <PublicFrame title="Sign in">
      <form onSubmit={submit} className="stack">
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
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        {signIn.error !== null && <ErrorMessage error={signIn.error} />}
        <button type="submit" className="button-primary" disabled={signIn.pending}>
          {signIn.pending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p className="public-links">
        <Link to="/forgot-password">Forgot your password?</Link>
      </p>
    </PublicFrame>
  );
}
