import { Email } from '../../components/Email';
import { Secret } from '../../components/Secret';
import { formatTime } from '../../hooks';
import type { InvitationSent } from '../../types';

/**
 * What became of an invitation's link: mailed (the mailbox alone holds it), or not, and then why, with the link
 * to pass on by hand.
 */
export function InvitationDelivery({ sent, again = false }: { sent: InvitationSent; again?: boolean }) {
  const { invitation, mail, link } = sent;
  const until = formatTime(invitation.expiresAt);
  const previous = again ? ' The link sent before no longer works.' : '';
  if (mail.sent) {
    return (
      <p role="status">
        Invitation sent to{' '}
        <strong>
          <Email address={invitation.email} />
        </strong>
        . Its link works once, until {until}.{previous}
      </p>
    );
  }
  return (
    <>
      <p>
        No mail was sent to{' '}
        <strong>
          <Email address={invitation.email} />
        </strong>
        . {mail.reason}
        {previous}
      </p>
      {link && (
        <Secret
          label={`Invitation link for ${invitation.email}`}
          value={link}
          warning={`Send this link to ${invitation.email} yourself, privately: whoever opens it can join as them. It works once, until ${until}.`}
        />
      )}
    </>
  );
}

/** The title of the dialog that shows a delivery. */
export const deliveryTitle = (sent: InvitationSent) => (sent.mail.sent ? 'Invitation sent' : 'Pass the link on');
