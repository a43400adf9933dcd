import { useState, type FormEvent } from 'react';
import { call, client } from '../api';
import { useWrite } from '../queries';
import { Field } from '../components/Field';
import { ErrorMessage, FormAlert } from '../components/Status';
import { formFeedback } from '../form-errors';
import { useSession } from '../session';
import { SecondFactor } from './account/SecondFactor';
import { Sessions, SESSIONS_KEY } from './account/Sessions';
import { useSignOut } from './account/useSignOut';

export function AccountScreen() {
  const { session, setSession } = useSession();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [changed, setChanged] = useState(false);
  // A password change ends every session and starts a new one here: the list of sessions is read again.
  const change = useWrite(
    (body: { currentPassword: string; newPassword: string }) => call(client.POST('/password', { body })),
    [SESSIONS_KEY],
  );
  const signOut = useSignOut();

  const feedback = formFeedback(change.error, {
    currentPassword: 'Current password',
    newPassword: 'New password',
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setChanged(false);
    if (next !== confirm) {
      change.setError(new Error('The new password and its confirmation differ.'));
      return;
    }
    const fresh = await change.execute({ currentPassword: current, newPassword: next });
    if (fresh) {
      // The server ended every session and started a new one for us: its CSRF token replaces ours.
      setSession(fresh);
      setCurrent('');
      setNext('');
      setConfirm('');
      setChanged(true);
    }
  };

  return (
    <>
      <h1>Account</h1>
      <p className="lead">
        Signed in as <strong>{session.user.email}</strong>.
      </p>
      <section className="panel" aria-labelledby="password-title">
        <h2 id="password-title">Change password</h2>
        <form onSubmit={submit} className="stack">
          <Field
            label="Current password"
            type="password"
            autoComplete="current-password"
            required
            error={feedback.fields.currentPassword}
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
          />
          <Field
            label="New password"
            type="password"
            autoComplete="new-password"
            required
            minLength={8}
            hint="At least 8 characters. Your other sessions will be signed out."
            error={feedback.fields.newPassword}
            value={next}
            onChange={(e) => setNext(e.target.value)}
          />
          <Field
            label="Confirm new password"
            type="password"
            autoComplete="new-password"
            required
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
          />
          <FormAlert summary={feedback.summary} />
          <div className="actions actions-start">
            <button type="submit" className="button-primary" disabled={change.pending}>
              {change.pending ? 'Changing…' : 'Change password'}
            </button>
            <p role="status" className="success-text">
              {changed ? 'Password changed. Your other sessions were signed out.' : ''}
            </p>
          </div>
        </form>
      </section>
      <SecondFactor />
      <Sessions />
      <section className="panel" aria-labelledby="signout-title">
        <h2 id="signout-title">Sign out</h2>
        <p>Ends this session on this device.</p>
        {signOut.error !== null && <ErrorMessage error={signOut.error} />}
        <button type="button" disabled={signOut.pending} onClick={() => void signOut.signOut()}>
          Sign out
        </button>
      </section>
    </>
  );
}
