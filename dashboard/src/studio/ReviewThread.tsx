import { Email } from '../components/Email';
import { formatTime } from '../hooks';
import type { ReviewEntry } from '../types';

/** What each entry says after its author: a decision reads as one, a comment needs no verb. */
const DID: Record<ReviewEntry['type'], string> = {
  submitted: 'submitted it for review',
  comment: 'commented',
  changes_requested: 'requested changes',
  approved: 'approved it',
  withdrawn: 'withdrew it from review',
};

function Who({ author, you }: { author: ReviewEntry['author']; you: string }) {
  if (author.userId !== null && author.userId === you) return <>You</>;
  return <Email address={author.email} />;
}

/** The review's thread, oldest first: who, when and what; decisions marked apart from the conversation. */
export function ReviewThread({ entries, you }: { entries: ReviewEntry[]; you: string }) {
  return (
    <ol className="review-thread" aria-label="Review thread, oldest first">
      {entries.map((entry) => (
        <li key={entry.id} className={`review-entry review-entry-${entry.type}`} data-type={entry.type}>
          <p className="review-entry-head">
            <span className="review-who">
              <Who author={entry.author} you={you} />
            </span>{' '}
            <span className="review-did">{DID[entry.type]}</span>
            <time dateTime={entry.createdAt}>{formatTime(entry.createdAt)}</time>
          </p>
          {entry.body !== null && <p className="review-entry-body">{entry.body}</p>}
        </li>
      ))}
    </ol>
  );
}
