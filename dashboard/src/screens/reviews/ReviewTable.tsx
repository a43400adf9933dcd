import { Email } from '../../components/Email';
import { formatTime } from '../../hooks';
import { Link } from '../../router';
import type { ReviewSummary } from '../../types';
import { studioPath } from './review-api';

const comments = (count: number) => (count === 0 ? 'None' : count === 1 ? '1 comment' : `${count} comments`);

/** The queue's rows: each title opens the draft in the studio, where its thread and decisions are. */
export function ReviewTable({
  workspaceId,
  reviews,
  caption,
  busy,
}: {
  workspaceId: string;
  reviews: ReviewSummary[];
  caption: string;
  busy: boolean;
}) {
  return (
    <table className="table review-table" aria-busy={busy}>
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Title</th>
          <th scope="col">Kind</th>
          <th scope="col">Submitted by</th>
          <th scope="col">Last activity</th>
          <th scope="col">Comments</th>
        </tr>
      </thead>
      <tbody>
        {reviews.map((review) => (
          <tr key={review.id} data-review-id={review.id}>
            <th scope="row" data-label="Title">
              <Link to={studioPath(workspaceId, review.kind, review.resource.id)}>
                {review.resource.title || '(untitled)'}
              </Link>
            </th>
            <td data-label="Kind">{review.kind === 'post' ? 'Post' : 'Page'}</td>
            {/* One element in the cell: on a phone each cell is one value beside its label. */}
            <td data-label="Submitted by" className="wrap">
              <div>
                <Email address={review.submittedBy.email} />
                <span className="by">
                  <time dateTime={review.submittedAt}>{formatTime(review.submittedAt)}</time>
                </span>
              </div>
            </td>
            <td data-label="Last activity">
              <time dateTime={review.updatedAt}>{formatTime(review.updatedAt)}</time>
            </td>
            <td data-label="Comments">{comments(review.comments)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
