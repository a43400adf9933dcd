import { useState, type FormEvent } from 'react';
import { call, client } from '../api';
import { keys, useApi, useWrite } from '../queries';
import { Field } from '../components/Field';
import { ErrorMessage, FormAlert, Loading } from '../components/Status';
import { formFeedback } from '../form-errors';
import type { Session } from '../types';
import { NotFoundScreen, PublicFrame } from './Public';

/** First run only: creates the owner and the first workspace. Once anyone exists it is a 404. */
export function SetupScreen({ onDone }: { onDone(session: Session): void }) {
  const status = useApi(keys.setup, () => call(client.GET('/setup')));
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [workspaceName, setWorkspaceName] = useState('');
  const create = useWrite((body: { email: string; password: string; workspaceName: string }) =>
    call(client.POST('/setup', { body })),
  );

  const feedback = formFeedback(create.error, {
    email: 'Email',
    password: 'Password',
    workspaceName: 'Workspace name',
  });

  if (status.state === 'loading') {
    return (
      <PublicFrame title="Set up Quire">
        <Loading label="Checking whether setup is needed…" />
      </PublicFrame>
    );
  }
  if (status.state === 'error') {
    return (
      <PublicFrame title="Set up Quire">
        <ErrorMessage error={status.error} onRetry={status.reload} />
      </PublicFrame>
    );
  }
  if (!status.data.needed) return <NotFoundScreen />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const session = await create.execute({ email: email.trim(), password, workspaceName: workspaceName.trim() });
    if (session) onDone(session);
  };

  return (
    <PublicFrame title="Set up Quire">
      <p>Create the owner account and the first workspace. You can invite others and add workspaces later.</p>
      <form onSubmit={submit} className="stack">
        <Field
          label="Email"
          type="email"
          autoComplete="email"
          required
          error={feedback.fields.email}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <Field
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          hint="At least 8 characters."
          error={feedback.fields.password}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <Field
          label="Workspace name"
          required
          hint="Usually the name of your site. You can rename it later."
          error={feedback.fields.workspaceName}
          value={workspaceName}
          onChange={(e) => setWorkspaceName(e.target.value)}
        />
        <FormAlert summary={feedback.summary} />
        <button type="submit" className="button-primary" disabled={create.pending}>
          {create.pending ? 'Creating…' : 'Create owner and workspace'}
        </button>
      </form>
    </PublicFrame>
  );
}
