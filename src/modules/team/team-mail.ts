import { message, until } from '../../mail/message.js';
import type { Message } from '../../mail/mailer.js';

export function invitationMail(invitation: {
  to: string;
  workspaceName: string;
  invitedBy: string | null;
  url: string;
  expiresAt: string;
}): Message {
  const who = invitation.invitedBy ?? 'The owner';
  return message(
    invitation.to,
    `You are invited to ${invitation.workspaceName} on Quire`,
    [`${who} invited you to write and publish with them in ${invitation.workspaceName}, on Quire.`],
    { label: 'Accept the invitation', url: invitation.url },
    [
      `The link works once, until ${until(invitation.expiresAt)}. If you already have a Quire account with this address, you will sign in with it; otherwise you choose a password.`,
      'If you did not expect this invitation, you can ignore this mail: nothing happens until the link is used.',
    ],
  );
}

export function passwordResetMail(reset: { to: string; url: string; expiresAt: string }): Message {
  return message(
    reset.to,
    'Reset your Quire password',
    ['Someone, probably you, asked to reset the password of your Quire account.'],
    { label: 'Choose a new password', url: reset.url },
    [
      `The link works once, until ${until(reset.expiresAt)}. Setting a new password signs you out everywhere else.`,
      'If you did not ask for this, ignore this mail: your password stays as it is.',
    ],
  );
}
