import { useState, type FormEvent } from 'react';
import { ApiError, call, client } from '../../api';
import { Email } from '../../components/Email';
import { Field } from '../../components/Field';
import { ErrorMessage, FormAlert, Loading } from '../../components/Status';
import { formFeedback, type FormFeedback } from '../../form-errors';
import { formatTime } from '../../hooks';
import { useApi, useWrite } from '../../queries';
import { Link } from '../../router';
import type { InvitationPreview, Session } from '../../types';
import { waitWords } from '../../wait-words';
import { PublicFrame } from '../Public';
import { INCOMPLETE, LinkProblem } from './LinkProblem';
import { useLinkToken } from './link-token';

interface Props {
  /** Whoever this page is signed in as, if anyone: joining signs the invitee in instead. */
  signedInAs: string | null;
  onJoined(session: Session, workspaceId: string): void;
}

const gone = (error: unknown): error is ApiError => error instanceof ApiError && error.status === 404;

/** /invitation#<token>: who invites whom to what, then the password that joins (an account's, or a new one). */
export function InvitationScreen(props: Props) {
  const { token, opened } = useLinkToken('/invitation');
  // A link opened over this one starts afresh: nothing typed or refused for the first one stays.
  return <Invitation key={opened} token={token} opened={opened} {...props} />;
}

function Invitation({ token, opened, signedInAs, onJoined }: Props & { token: string; opened: number }) {
  const preview = useApi(
    // Read afresh for each opening: the same link opened again may have been used meanwhile.
    ['invitation', token, opened],
    () => call(client.POST('/invitations/preview', { body: { token } })),
    {
      enabled: token !== '',
    },
  );
  const accept = useWrite((password: string) =>
    call(client.POST('/invitations/accept', { body: { token, password } })),
  );

  const unusable = (message: string) => (
    <LinkProblem title="This invitation cannot be used" message={message}>
      <Link to="/sign-in">Sign in</Link>
    </LinkProblem>
  );
  if (token === '') return unusable(INCOMPLETE);
  if (gone(preview.error)) return unusable(preview.error.message);
  // Used or withdrawn between reading it and answering it.
  if (gone(accept.error)) return unusable(accept.error.message);
  if (preview.state === 'error' || !preview.data) {
    return (
      <PublicFrame title="Invitation">
        {preview.state === 'error' ? (
          <ErrorMessage error={preview.error} onRetry={preview.reload} />
        ) : (
          <Loading label="Reading the invitation…" />
        )}
      </PublicFrame>
    );
  }

  const invitation = preview.data;
  const submit = async (password: string) => {
    const session = await accept.execute(password);
    if (session) onJoined(session, invitation.workspaceId);
  };
  return (
    <PublicFrame title={`Join ${invitation.workspaceName}`}>
      <Invited invitation={invitation} signedInAs={signedInAs} />
      <JoinForm
        invitation={invitation}
        pending={accept.pending}
        feedback={acceptFeedback(accept.error)}
        onSubmit={submit}
      />
    </PublicFrame>
  );
}

function Invited({ invitation, signedInAs }: { invitation: InvitationPreview; signedInAs: string | null }) {
  const invitee = (
    <strong>
      <Email address={invitation.email} />
    </strong>
  );
  return (
    <>
      <p>
        {invitation.invitedByEmail ? (
          <>
            <Email address={invitation.invitedByEmail} /> invited {invitee}
          </>
        ) : (
          <>The owner invited {invitee}</>
        )}{' '}
        to write and publish with them in <strong>{invitation.workspaceName}</strong>.
      </p>
      <p className="hint">
        This invitation works once, until{' '}
        <time dateTime={invitation.expiresAt}>{formatTime(invitation.expiresAt)}</time>.
      </p>
      {signedInAs !== null && signedInAs !== invitation.email && (
        <p className="notice notice-warn">
          This browser is signed in as <Email address={signedInAs} />. Joining signs it in as{' '}
          <Email address={invitation.email} /> instead.
        </p>
      )}
    </>
  );
}

interface FormProps {
  invitation: InvitationPreview;
  pending: boolean;
  feedback: FormFeedback;
  onSubmit(password: string): void;
}

/** An existing account joins with its password; a new one is made with the password chosen here. */
function JoinForm({ invitation, pending, feedback, onSubmit }: FormProps) {
  const [password, setPassword] = useState('');
  const existing = invitation.accountExists;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(password);
  };
  return (
    <section className="public-section" aria-labelledby="join-title">
      <h2 id="join-title">{existing ? `Sign in as ${invitation.email} to join` : 'Choose a password'}</h2>
      {!existing && <p>It makes your Quire account, with this email, and signs you in.</p>}
      <form onSubmit={submit} className="stack">
        {/* Read-only, and there for password managers: they file a password under the username beside it. */}
        <Field label="Email" type="email" autoComplete="username" readOnly value={invitation.email} />
        <Field
          label="Password"
          type="password"
          autoComplete={existing ? 'current-password' : 'new-password'}
          required
          minLength={existing ? undefined : 8}
          hint={existing ? undefined : 'At least 8 characters.'}
          error={feedback.fields.password}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoFocus
        />
        <FormAlert summary={feedback.summary} />
        <button type="submit" className="button-primary" disabled={pending}>
          {pending ? 'Joining…' : existing ? 'Sign in and join' : 'Create account and join'}
        </button>
      </form>
      {existing && (
        <p className="public-links">
          <Link to="/forgot-password">Forgot your password?</Link>
        </p>
      )}
    </section>
  );
}

function acceptFeedback(error: unknown): FormFeedback {
  const wait = waitWords(error);
  if (wait !== null)
    return { fields: {}, summary: `Too many wrong passwords for this account from here. Try again ${wait}.` };
  return formFeedback(error, { password: 'Password' });
}
