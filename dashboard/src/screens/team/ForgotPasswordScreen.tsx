import { useState, type FormEvent } from 'react';
import { ApiError, call, client } from '../../api';
import { useCapabilities } from '../../capabilities';
import { Field } from '../../components/Field';
import { ErrorMessage, FormAlert, Loading } from '../../components/Status';
import { formFeedback } from '../../form-errors';
import { useWrite } from '../../queries';
import { Link } from '../../router';
import { waitWords } from '../../wait-words';
import { PublicFrame } from '../Public';

const TITLE = 'Reset your password';

const mailOff = (error: unknown) =>
  error instanceof ApiError && error.status === 409 && error.details?.reason === 'mail_off';

/**
 * /forgot-password: asks for a reset link by mail. The answer is the same whether or not an account has that
 * email (the server's is too), so this page never tells who has an account.
 */
export function ForgotPasswordScreen() {
  const capabilities = useCapabilities();
  const [email, setEmail] = useState('');
  const [askedFor, setAskedFor] = useState<string | null>(null);
  const request = useWrite((body: { email: string }) => call(client.POST('/password-reset', { body })));

  const back = (
    <p className="public-links">
      <Link to="/sign-in">Back to sign in</Link>
    </p>
  );
  if (capabilities.state === 'error') {
    return (
      <PublicFrame title={TITLE}>
        <ErrorMessage error={capabilities.error} onRetry={capabilities.reload} />
      </PublicFrame>
    );
  }
  if (!capabilities.data) {
    return (
      <PublicFrame title={TITLE}>
        <Loading label="Checking whether this server sends mail…" />
      </PublicFrame>
    );
  }
  if (!capabilities.data.mail || mailOff(request.error)) {
    return (
      <PublicFrame title={TITLE}>
        <p>
          This server sends no mail, so a password cannot be reset by email. Ask whoever runs this Quire to set a new
          one for you with <code>quire user password</code>.
        </p>
        {back}
      </PublicFrame>
    );
  }
  if (askedFor !== null) {
    return (
      <PublicFrame title={TITLE}>
        <p role="status">
          If an account exists for <strong>{askedFor}</strong>, a link is on its way. It works once, for one hour.
        </p>
        <p className="hint">
          Nothing after a few minutes? Look in the spam folder, or check the address and ask again.
        </p>
        <div className="public-links">
          <button type="button" onClick={() => setAskedFor(null)}>
            Ask again
          </button>
          <Link to="/sign-in">Back to sign in</Link>
        </div>
      </PublicFrame>
    );
  }

  const wait = waitWords(request.error);
  const feedback =
    wait !== null
      ? { fields: {}, summary: `Too many reset links were asked for from here. Try again ${wait}.` }
      : formFeedback(request.error, { email: 'Email' });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const asked = email.trim();
    if (await request.execute({ email: asked })) setAskedFor(asked);
  };
  return (
    <PublicFrame title={TITLE}>
      <p>Give the email of your Quire account: we send it a link to choose a new password.</p>
      <form onSubmit={submit} className="stack">
        <Field
          label="Email"
          type="email"
          autoComplete="username"
          required
          error={feedback.fields.email}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          autoFocus
        />
        <FormAlert summary={feedback.summary} />
        <button type="submit" className="button-primary" disabled={request.pending}>
          {request.pending ? 'Sending…' : 'Send the link'}
        </button>
      </form>
      {back}
    </PublicFrame>
  );
}
