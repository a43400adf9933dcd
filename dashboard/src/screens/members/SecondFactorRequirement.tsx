import { useEffect, useId, useState } from 'react';
import { call, client } from '../../api';
import { ErrorMessage } from '../../components/Status';
import { keys, useWrite } from '../../queries';
import { Link } from '../../router';
import { useSession } from '../../session';
import type { WorkspaceSummary } from '../../types';
import { conflictReason } from '../account/second-factor';
import '../account/second-factor.css';

/** The owner's switch: every member must sign in with a second factor to use this workspace. */
export function SecondFactorRequirement({ workspace }: { workspace: WorkspaceSummary }) {
  const { refresh } = useSession();
  const id = useId();
  // What the server last said, until the session read after it agrees.
  const [required, setRequired] = useState(workspace.requireSecondFactor);
  const [message, setMessage] = useState('');
  useEffect(() => setRequired(workspace.requireSecondFactor), [workspace.requireSecondFactor]);

  const save = useWrite(
    (next: boolean) =>
      call(
        client.PUT('/workspaces/{workspaceId}/second-factor-requirement', {
          params: { path: { workspaceId: workspace.id } },
          body: { required: next },
        }),
      ),
    [keys.resource(workspace.id, 'members')],
  );

  const change = async (next: boolean) => {
    setMessage('');
    const answer = await save.execute(next);
    if (!answer) return;
    setRequired(answer.requireSecondFactor);
    setMessage(
      answer.requireSecondFactor
        ? 'Every member now needs a second factor to use this workspace.'
        : 'A second factor is no longer required.',
    );
    // The workspace list in the session carries the requirement: read it again, as a rename does.
    await refresh();
  };

  const ownerHasNone = conflictReason(save.error) === 'owner_without_second_factor';

  return (
    <section className="panel requirement" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Two-factor authentication</h2>
      <div className="check">
        <input
          id={id}
          type="checkbox"
          role="switch"
          checked={required}
          disabled={save.pending}
          aria-describedby={`${id}-hint`}
          onChange={(event) => void change(event.target.checked)}
        />
        <div>
          <label htmlFor={id} className="requirement-switch">
            Require a second factor for every member
          </label>
          <p id={`${id}-hint`} className="hint">
            Members without one cannot use this workspace until they set one up under Account. API keys are not
            affected.
          </p>
        </div>
      </div>
      {ownerHasNone ? (
        <div className="notice notice-error" role="alert">
          <p>
            Set up two-factor authentication for yourself first, under <Link to="/account">Account</Link>: you are a
            member too.
          </p>
        </div>
      ) : (
        save.error !== null && <ErrorMessage error={save.error} />
      )}
      <p role="status" className="success-text">
        {message}
      </p>
    </section>
  );
}
