import { useId, useState } from 'react';
import { call, client } from '../../api';
import { keys, useApi, useWrite } from '../../queries';
import { ConfirmDialog } from '../../components/Dialog';
import { Email } from '../../components/Email';
import { Badge, Empty, ErrorMessage, Loading } from '../../components/Status';
import { formatTime } from '../../hooks';
import { can, useSession } from '../../session';
import type { Member, WorkspaceSummary } from '../../types';
import { InviteDialog } from './InviteDialog';
import { PermissionsDialog } from './MemberDialogs';
import { PendingInvitations } from './PendingInvitations';
import { summarize } from './PermissionsGrid';
import { roleLabel } from './RoleChoice';
import { SecondFactorRequirement } from './SecondFactorRequirement';

type Action =
  | { kind: 'invite' }
  | { kind: 'permissions' | 'remove' | 'end-sessions'; member: Member }
  | { kind: 'transfer'; member: Member };

const sessionWords = (n: number) => (n === 1 ? '1 session' : `${n} sessions`);

export function MembersScreen({ workspace }: { workspace: WorkspaceSummary }) {
  const { refresh } = useSession();
  const members = useApi(keys.resource(workspace.id, 'members'), () =>
    call(client.GET('/workspaces/{workspaceId}/members', { params: { path: { workspaceId: workspace.id } } })),
  );
  const [action, setAction] = useState<Action | null>(null);
  const [transferTo, setTransferTo] = useState('');
  const [signedOut, setSignedOut] = useState<string | null>(null);
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
  const endSessions = useWrite(
    (member: Member) =>
      call(
        client.POST('/workspaces/{workspaceId}/members/{userId}/end-sessions', {
          params: { path: { workspaceId: workspace.id, userId: member.userId } },
        }),
      ),
    [],
  );
  const owner = workspace.isOwner;
  // Managing members is a permission now (the owner holds it); transferring stays the owner's.
  const manage = can(workspace, 'members:write');
  const start = (next: Action) => {
    setSignedOut(null);
    setAction(next);
  };
  const others = (members.data ?? []).filter((m) => !m.isOwner);

  return (
    <>
      <div className="page-header">
        <h1>Members</h1>
        {manage && (
          <button type="button" className="button-primary" onClick={() => start({ kind: 'invite' })}>
            Invite member
          </button>
        )}
      </div>
      <p className="lead">
        Members sign in to this dashboard; their API keys carry their permissions.{' '}
        {owner
          ? 'You, the owner, change them, and so do members you let manage members.'
          : manage
            ? 'You may invite members and change their permissions, up to the permissions you hold yourself.'
            : 'Only the owner, and members allowed to manage members, can change them.'}
        {!owner && workspace.requireSecondFactor && ' Every member signs in with a second factor.'}
      </p>
      {signedOut && (
        <p role="status" className="success-text">
          {signedOut}
        </p>
      )}

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
              {manage && (
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
                <td data-label="Role">
                  {member.isOwner ? <Badge tone="neutral">Owner</Badge> : roleLabel(member.permissions, false)}
                </td>
                <td data-label="Permissions" className="wrap">
                  {summarize(member.permissions, member.isOwner)}
                </td>
                <td data-label="Added">
                  <time dateTime={member.createdAt}>{formatTime(member.createdAt)}</time>
                </td>
                {manage && (
                  <td className="actions-cell">
                    <div className="row-actions">
                      {!member.isOwner && (
                        <>
                          <button type="button" onClick={() => start({ kind: 'permissions', member })}>
                            Edit permissions<span className="visually-hidden"> of {member.email}</span>
                          </button>
                          {owner && (
                            <button
                              type="button"
                              onClick={() => {
                                endSessions.setError(null);
                                start({ kind: 'end-sessions', member });
                              }}
                            >
                              End sessions<span className="visually-hidden"> of {member.email}</span>
                            </button>
                          )}
                          <button
                            type="button"
                            className="button-danger-quiet"
                            onClick={() => start({ kind: 'remove', member })}
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

      {manage && <PendingInvitations workspace={workspace} />}

      {owner && <SecondFactorRequirement workspace={workspace} />}

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

      {action?.kind === 'invite' && <InviteDialog workspace={workspace} onClose={done} />}
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
            They lose access to this workspace at once and are signed out of the dashboard everywhere; every API key
            they created stops working (the keys come back if they are added again).
          </p>
        </ConfirmDialog>
      )}
      {action?.kind === 'end-sessions' && (
        <ConfirmDialog
          title={`Sign ${action.member.email} out everywhere?`}
          confirmLabel="End sessions"
          danger
          pending={endSessions.pending}
          error={endSessions.error !== null && <ErrorMessage error={endSessions.error} />}
          onCancel={() => setAction(null)}
          onConfirm={async () => {
            const answer = await endSessions.execute(action.member);
            if (answer) {
              setSignedOut(`Signed ${action.member.email} out of ${sessionWords(answer.ended)}.`);
              setAction(null);
            }
          }}
        >
          <p>They can sign in again. Every dashboard session of theirs ends, on every device and in every workspace.</p>
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
            You will no longer be able to rename the workspace, end members’ sessions or transfer it. You keep every
            permission, managing members and settings included, until the new owner changes them. Only the new owner can
            give ownership back.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
