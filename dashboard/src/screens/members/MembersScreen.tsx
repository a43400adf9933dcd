import { useId, useState } from 'react';
import { call, client } from '../../api';
import { keys, useApi, useWrite } from '../../queries';
import { ConfirmDialog } from '../../components/Dialog';
import { Email } from '../../components/Email';
import { Badge, Empty, ErrorMessage, Loading } from '../../components/Status';
import { formatTime } from '../../hooks';
import { useSession } from '../../session';
import type { Member, WorkspaceSummary } from '../../types';
import { AddMemberDialog, PermissionsDialog } from './MemberDialogs';
import { summarize } from './PermissionsGrid';

type Action =
  { kind: 'add' } | { kind: 'permissions' | 'remove'; member: Member } | { kind: 'transfer'; member: Member };

export function MembersScreen({ workspace }: { workspace: WorkspaceSummary }) {
  const { refresh } = useSession();
  const members = useApi(keys.resource(workspace.id, 'members'), () =>
    call(client.GET('/workspaces/{workspaceId}/members', { params: { path: { workspaceId: workspace.id } } })),
  );
  const [action, setAction] = useState<Action | null>(null);
  const [transferTo, setTransferTo] = useState('');
  const transferId = useId();
  const done = () => {
    setAction(null);
    members.reload();
  };
  const remove = useWrite(
    (member: Member) =>
      call(
        client.DELETE('/workspaces/{workspaceId}/members/{userId}', {
          params: { path: { workspaceId: workspace.id, userId: member.userId } },
        }),
      ),
    [keys.resource(workspace.id, 'members')],
  );
  const transfer = useWrite(
    (member: Member) =>
      call(
        client.POST('/workspaces/{workspaceId}/transfer', {
          params: { path: { workspaceId: workspace.id } },
          body: { userId: member.userId },
        }),
      ),
    [keys.resource(workspace.id, 'members')],
  );
  const owner = workspace.isOwner;
  const others = (members.data ?? []).filter((m) => !m.isOwner);

  return (
    <>
      <div className="page-header">
        <h1>Members</h1>
        {owner && (
          <button type="button" className="button-primary" onClick={() => setAction({ kind: 'add' })}>
            Add member
          </button>
        )}
      </div>
      <p className="lead">
        Members sign in to this dashboard; their API keys carry their permissions.{' '}
        {owner ? 'Only you, the owner, can change them.' : 'Only the owner can change them.'}
      </p>

      {members.state === 'error' && <ErrorMessage error={members.error} onRetry={members.reload} />}
      {members.state === 'loading' && !members.data && <Loading label="Loading members…" />}
      {members.data && members.data.length === 0 && <Empty>No members.</Empty>}
      {members.data && members.data.length > 0 && (
        <table className="table" aria-busy={members.state === 'loading'}>
          <caption className="visually-hidden">Members</caption>
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Permissions</th>
              <th scope="col">Added</th>
              {owner && (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {members.data.map((member) => (
              <tr key={member.userId}>
                <th scope="row" data-label="Email">
                  <Email address={member.email} />
                </th>
                <td data-label="Role">{member.isOwner ? <Badge tone="neutral">Owner</Badge> : 'Member'}</td>
                <td data-label="Permissions" className="wrap">
                  {summarize(member.permissions, member.isOwner)}
                </td>
                <td data-label="Added">
                  <time dateTime={member.createdAt}>{formatTime(member.createdAt)}</time>
                </td>
                {owner && (
                  <td className="actions-cell">
                    <div className="row-actions">
                      {!member.isOwner && (
                        <>
                          <button type="button" onClick={() => setAction({ kind: 'permissions', member })}>
                            Permissions<span className="visually-hidden"> of {member.email}</span>
                          </button>
                          <button
                            type="button"
                            className="button-danger-quiet"
                            onClick={() => setAction({ kind: 'remove', member })}
                          >
                            Remove<span className="visually-hidden"> {member.email}</span>
                          </button>
                        </>
                      )}
                    </div>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}

      {owner && others.length > 0 && (
        <section className="panel" aria-labelledby={`${transferId}-title`}>
          <h2 id={`${transferId}-title`}>Transfer ownership</h2>
          <p>The new owner gets every permission. You stay a member and keep every permission, listed explicitly.</p>
          <div className="field-row">
            <div className="field">
              <label htmlFor={transferId}>New owner</label>
              <select id={transferId} value={transferTo} onChange={(e) => setTransferTo(e.target.value)}>
                <option value="">Choose a member</option>
                {others.map((m) => (
                  <option key={m.userId} value={m.userId}>
                    {m.email}
                  </option>
                ))}
              </select>
            </div>
            <button
              type="button"
              disabled={!transferTo}
              onClick={() => {
                const member = others.find((m) => m.userId === transferTo);
                if (member) setAction({ kind: 'transfer', member });
              }}
            >
              Transfer ownership…
            </button>
          </div>
        </section>
      )}

      {action?.kind === 'add' && <AddMemberDialog workspace={workspace} onClose={done} />}
      {action?.kind === 'permissions' && (
        <PermissionsDialog
          workspace={workspace}
          member={action.member}
          onClose={() => setAction(null)}
          onSaved={done}
        />
      )}
      {action?.kind === 'remove' && (
        <ConfirmDialog
          title={`Remove ${action.member.email}?`}
          confirmLabel="Remove member"
          danger
          pending={remove.pending}
          error={remove.error !== null && <ErrorMessage error={remove.error} />}
          onCancel={() => setAction(null)}
          onConfirm={async () => {
            if (await remove.execute(action.member)) done();
          }}
        >
          <p>
            They lose access to this workspace at once, and every API key they created stops working (the keys come back
            if they are added again).
          </p>
        </ConfirmDialog>
      )}
      {action?.kind === 'transfer' && (
        <ConfirmDialog
          title={`Make ${action.member.email} the owner?`}
          confirmLabel="Transfer ownership"
          danger
          pending={transfer.pending}
          error={transfer.error !== null && <ErrorMessage error={transfer.error} />}
          onCancel={() => setAction(null)}
          onConfirm={async () => {
            if (await transfer.execute(action.member)) {
              setTransferTo('');
              await refresh();
              done();
            }
          }}
        >
          <p>
            You will no longer be able to manage members, rename the workspace or change its settings. Only the new
            owner can give ownership back.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
