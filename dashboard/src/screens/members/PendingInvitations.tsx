import { useState } from 'react';
import { ApiError, call, client } from '../../api';
import { ConfirmDialog, Dialog, DialogDone } from '../../components/Dialog';
import { Email } from '../../components/Email';
import { Badge, ErrorMessage } from '../../components/Status';
import { formatTime } from '../../hooks';
import { keys, useApi, useWrite } from '../../queries';
import type { Invitation, InvitationSent, WorkspaceSummary } from '../../types';
import { waitWords } from '../../wait-words';
import { deliveryTitle, InvitationDelivery } from './InvitationDelivery';
import { summarize } from './PermissionsGrid';

type Action = { kind: 'withdraw'; invitation: Invitation } | { kind: 'resent'; sent: InvitationSent };

/** A resend within a minute of the last mail is refused (429): say when it can be sent again. */
function politely(error: unknown): unknown {
  if (!(error instanceof ApiError) || error.status !== 429) return error;
  const wait = waitWords(error);
  return new Error(
    `This invitation was sent less than a minute ago, so it was not sent again. You can resend it ${wait ?? 'in a minute'}.`,
  );
}

/** The owner's list of invitations not yet accepted: resend (a new link) or withdraw each. Hidden when empty. */
export function PendingInvitations({ workspace }: { workspace: WorkspaceSummary }) {
  const invitations = useApi(keys.resource(workspace.id, 'invitations'), () =>
    call(client.GET('/workspaces/{workspaceId}/invitations', { params: { path: { workspaceId: workspace.id } } })),
  );
  const [action, setAction] = useState<Action | null>(null);
  const path = (invitation: Invitation) => ({ params: { path: { workspaceId: workspace.id, id: invitation.id } } });
  const resend = useWrite(
    async (invitation: Invitation) => {
      try {
        return await call(client.POST('/workspaces/{workspaceId}/invitations/{id}/resend', path(invitation)));
      } catch (error) {
        throw politely(error);
      }
    },
    [keys.resource(workspace.id, 'invitations')],
  );
  const withdraw = useWrite(
    (invitation: Invitation) => call(client.DELETE('/workspaces/{workspaceId}/invitations/{id}', path(invitation))),
    [keys.resource(workspace.id, 'invitations')],
  );

  if (invitations.state === 'error') return <ErrorMessage error={invitations.error} onRetry={invitations.reload} />;
  if (!invitations.data || invitations.data.length === 0) return null;

  return (
    <section className="list-section" aria-labelledby="pending-title">
      <h2 id="pending-title">Pending invitations</h2>
      {resend.error !== null && <ErrorMessage error={resend.error} />}
      <table className="table" aria-busy={invitations.state === 'loading'}>
        <caption className="visually-hidden">Pending invitations</caption>
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Permissions</th>
            <th scope="col">Sent</th>
            <th scope="col">Expires</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {invitations.data.map((invitation) => (
            <tr key={invitation.id}>
              <th scope="row" data-label="Email">
                <Email address={invitation.email} />
              </th>
              <td data-label="Permissions" className="wrap">
                {summarize(invitation.permissions, false)}
              </td>
              <td data-label="Sent">
                <span>
                  <time dateTime={invitation.sentAt}>{formatTime(invitation.sentAt)}</time>
                  {invitation.invitedByEmail && (
                    <span className="by">
                      by <Email address={invitation.invitedByEmail} />
                    </span>
                  )}
                </span>
              </td>
              <td data-label="Expires">
                {invitation.expired ? (
                  <Badge tone="bad">Expired</Badge>
                ) : (
                  <time dateTime={invitation.expiresAt}>{formatTime(invitation.expiresAt)}</time>
                )}
              </td>
              <td className="actions-cell">
                <div className="row-actions">
                  <button
                    type="button"
                    disabled={resend.pending}
                    onClick={async () => {
                      const sent = await resend.execute(invitation);
                      if (sent) setAction({ kind: 'resent', sent });
                    }}
                  >
                    Resend<span className="visually-hidden"> the invitation of {invitation.email}</span>
                  </button>
                  <button
                    type="button"
                    className="button-danger-quiet"
                    onClick={() => {
                      withdraw.setError(null);
                      setAction({ kind: 'withdraw', invitation });
                    }}
                  >
                    Withdraw<span className="visually-hidden"> the invitation of {invitation.email}</span>
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      {action?.kind === 'resent' && (
        <Dialog title={deliveryTitle(action.sent)} onClose={() => setAction(null)}>
          <InvitationDelivery sent={action.sent} again />
          <DialogDone onClose={() => setAction(null)} />
        </Dialog>
      )}
      {action?.kind === 'withdraw' && (
        <ConfirmDialog
          title="Withdraw this invitation?"
          confirmLabel="Withdraw invitation"
          danger
          pending={withdraw.pending}
          error={withdraw.error !== null && <ErrorMessage error={withdraw.error} />}
          onCancel={() => setAction(null)}
          onConfirm={async () => {
            if (await withdraw.execute(action.invitation)) setAction(null);
          }}
        >
          <p>
            Its link stops working at once: <Email address={action.invitation.email} /> can no longer join with it. You
            can invite them again later.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
