import { useState, type FormEvent } from 'react';
import { ApiError, call, client } from '../../api';
import { Field } from '../../components/Field';
import { FormAlert } from '../../components/Status';
import { formFeedback } from '../../form-errors';
import { useWrite } from '../../queries';
import type { Session } from '../../types';
import { Link } from '../../router';
import { PublicFrame } from '../Public';
import { INCOMPLETE, LinkProblem } from './LinkProblem';
import { useLinkToken } from './link-token';

/** /reset-password#<token>: the new password; the server then ends every other session and signs this one in. */
export function ResetPasswordScreen({ onDone }: { onDone(session: Session): void }) {
  const { token, opened } = useLinkToken('/reset-password');
  // A link opened over this one starts afresh: nothing typed or refused for the first one stays.
  return <ResetPassword key={opened} token={token} onDone={onDone} />;
}

function ResetPassword({ token, onDone }: { token: string; onDone(session: Session): void }) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const reset = useWrite((newPassword: string) =>
    call(client.POST('/password-reset/complete', { body: { token, newPassword } })),
  );

  const unusable = (message: string) => (
    <LinkProblem title="This reset link cannot be used" message={message}>
      <Link to="/forgot-password">Ask for a new link</Link>
      <Link to="/sign-in">Sign in</Link>
    </LinkProblem>
  );
  if (token === '') return unusable(INCOMPLETE);
  // The link is only checked on use: a reset has no preview, so nothing is spent by opening it.
  if (reset.error instanceof ApiError && reset.error.status === 404) return unusable(reset.error.message);

  const feedback = formFeedback(reset.error, { newPassword: 'New password' });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (password !== confirm) {
      reset.setError(new Error('The new password and its confirmation differ.'));
      return;
    }
    const session = await reset.execute(password);
    if (session) onDone(session);
  };
  return (
    <PublicFrame title="Choose a new password">
      <form onSubmit={submit} className="stack">
        <Field
          label="New password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          hint="At least 8 characters. Every other session of your account will be signed out."
          error={feedback.fields.newPassword}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoFocus
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
        <button type="submit" className="button-primary" disabled={reset.pending}>
          {reset.pending ? 'Saving…' : 'Save the new password'}
        </button>
      </form>
    </PublicFrame>
  );
}
