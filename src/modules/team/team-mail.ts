import type { Message } from '../../mail/mailer.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escape = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);

/** The date a link stops working, as a reader anywhere reads it: in words, with its time zone. */
function until(iso: string): string {
  return new Date(iso).toUTCString().replace('GMT', 'UTC');
}

/** Paragraphs of plain text, and the same as HTML around one button-like link. */
function message(to: string, subject: string, before: string[], link: { label: string; url: string }, after: string[]) {
  const text = [...before, `${link.label}: ${link.url}`, ...after].join('\n\n');
  const paragraphs = (lines: string[]) => lines.map((line) => `<p>${escape(line)}</p>`).join('\n');
  const html = `<!doctype html>
<html lang="en"><body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #1f2328; max-width: 36rem">
${paragraphs(before)}
<p><a href="${escape(link.url)}" style="display: inline-block; padding: 0.6em 1.2em; background: #1f5fbf; color: #fff; border-radius: 6px; text-decoration: none">${escape(link.label)}</a></p>
<p style="font-size: 0.9em; color: #57606a">Or paste this address into your browser: ${escape(link.url)}</p>
${paragraphs(after)}
</body></html>
`;
  return { to, subject, text, html } satisfies Message;
}

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
