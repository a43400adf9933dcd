import type { Message } from '../../mail/mailer.js';
import { message } from '../../mail/message.js';
import type { NotificationType } from './reviews.schemas.js';

/** What happened to a review, as its mail tells it. */
export type ReviewMailEvent =
  | { type: 'review_submitted' | 'review_comment' | 'changes_requested'; by: string; comment: string | undefined }
  | { type: 'approved'; by: string; comment: string | undefined; published: boolean };

const LEADS: Record<NotificationType, (by: string, title: string, event: ReviewMailEvent) => [string, string]> = {
  review_submitted: (by, title) => [`Review requested: ${title}`, `${by} submitted “${title}” for review.`],
  review_comment: (by, title) => [`New comment on ${title}`, `${by} commented on the review of “${title}”.`],
  changes_requested: (by, title) => [`Changes requested: ${title}`, `${by} asked for changes to “${title}”.`],
  approved: (by, title, event) => [
    `Approved: ${title}`,
    event.type === 'approved' && event.published
      ? `${by} approved “${title}” and published it.`
      : `${by} approved “${title}”.`,
  ],
};

/** A review's step, mailed to someone concerned, with a link to the draft in the studio. */
export function reviewMail(event: ReviewMailEvent & { to: string; title: string; url: string }): Message {
  const title = event.title.trim() || 'Untitled';
  const [subject, lead] = LEADS[event.type](event.by, title, event);
  const said = event.comment === undefined ? [] : [`“${event.comment}”`];
  return message(event.to, subject, [lead, ...said], { label: 'Open it in Quire', url: event.url }, [
    'You get this mail because you take part in this review in Quire.',
  ]);
}
