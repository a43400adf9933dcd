import { useState, type FormEvent } from 'react';
import { ApiError, call, client } from '../../api';
import { useCapabilities } from '../../capabilities';
import { Dialog, DialogActions, DialogDone } from '../../components/Dialog';
import { Field } from '../../components/Field';
import { FormAlert } from '../../components/Status';
import { formFeedback, type FormFeedback } from '../../form-errors';
import { keys, useWrite } from '../../queries';
import type { components } from '../../api/schema';
import type { InvitationSent, WorkspaceSummary } from '../../types';
import { deliveryTitle, InvitationDelivery } from './InvitationDelivery';
import { ROLES } from '../../../../src/security/roles.js';
import { grantableBy, PermissionsEditor } from './RoleChoice';

/** The names an invitation takes: the grid offers only these. */
type InvitePermissions = components['schemas']['MemberAddBody']['permissions'];

const LABELS = { email: 'Email', permissions: 'Permissions' };

// The server's 409s, said on the email field with what to do about them.
const CONFLICTS: Record<string, string> = {
  member: 'This email belongs to a member of this workspace already.',
  invited: 'This email has an invitation already: resend or withdraw it under Pending invitations.',
};

function inviteFeedback(error: unknown): FormFeedback {
  if (error instanceof ApiError && error.status === 409) {
    const onEmail = CONFLICTS[String(error.details?.reason)];
    if (onEmail) return { fields: { email: onEmail }, summary: 'Check Email.' };
  }
  return formFeedback(error, LABELS);
}

/** Invites by email, with the permissions the member will hold; then says how the link went. */
export function InviteDialog({ workspace, onClose }: { workspace: WorkspaceSummary; onClose(): void }) {
  const capabilities = useCapabilities();
  const [email, setEmail] = useState('');
  const [permissions, setPermissions] = useState<string[]>(() => {
    // A Contributor to start with; a manager who lacks some of its permissions starts with those they hold.
    const grantable = grantableBy(workspace);
    return ROLES.contributor.filter((p) => !grantable || grantable.has(p));
  });
  const [sent, setSent] = useState<InvitationSent | null>(null);
  const invite = useWrite(
    (body: { email: string; permissions: string[] }) =>
      call(
        client.POST('/workspaces/{workspaceId}/invitations', {
          params: { path: { workspaceId: workspace.id } },
          body: { ...body, permissions: body.permissions as InvitePermissions },
        }),
      ),
    [keys.resource(workspace.id, 'invitations')],
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await invite.execute({ email: email.trim(), permissions });
    if (answer) setSent(answer);
  };
  const feedback = inviteFeedback(invite.error);

  if (sent) {
    return (
      <Dialog title={deliveryTitle(sent)} onClose={onClose}>
        <InvitationDelivery sent={sent} />
        <DialogDone onClose={onClose} />
      </Dialog>
    );
  }
  const mails = capabilities.data?.mail !== false;
  return (
    <Dialog title="Invite a member" onClose={onClose}>
      <form onSubmit={submit} className="stack">
        <Field
          label="Email"
          type="email"
          required
          hint={
            mails
              ? 'We mail them a link to join, which works once, for 7 days. Someone with a Quire account already joins with its password.'
              : 'This server sends no mail: you get a link to pass on yourself, which works once, for 7 days.'
          }
          error={feedback.fields.email}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          data-autofocus
        />
        <PermissionsEditor workspace={workspace} caption="Permissions" value={permissions} onChange={setPermissions} />
        <FormAlert summary={feedback.summary} />
        <DialogActions
          onCancel={onClose}
          pending={invite.pending}
          label={mails ? 'Send invitation' : 'Create invitation'}
          pendingLabel="Inviting…"
        />
      </form>
    </Dialog>
  );
}
