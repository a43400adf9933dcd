import { useQuery } from '@tanstack/react-query';
import type { WorkspaceSummary } from '../../types';
import { readQueue, reviewKeys } from './review-api';
import './review-count.css';

/**
 * How many drafts wait for a reviewer, beside the navigation's Review. Read with the shell and again whenever the
 * bell hears news or a review is acted on (both invalidate `reviews`); nothing when the queue cannot be read.
 */
export function ReviewCount({ workspace }: { workspace: WorkspaceSummary }) {
  const counts = useQuery({
    queryKey: reviewKeys.counts(workspace.id),
    queryFn: () => readQueue(workspace.id, { state: 'in_review', mine: false, limit: 1 }),
    select: (queue) => queue.counts.in_review,
  });
  const waiting = counts.data ?? 0;
  if (waiting === 0) return null;
  return (
    <span className="nav-count">
      {waiting}
      <span className="visually-hidden"> waiting</span>
    </span>
  );
}
