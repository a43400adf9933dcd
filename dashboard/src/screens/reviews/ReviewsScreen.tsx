import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { Empty, ErrorMessage, Loading } from '../../components/Status';
import { Link, useSearchState } from '../../router';
import { can } from '../../session';
import type { ReviewState, WorkspaceSummary } from '../../types';
import { readQueue, reviewKeys, STATE_WORDS } from './review-api';
import { ReviewTable } from './ReviewTable';
import './reviews.css';

/** Reviews a page: "Show more" adds as many again. */
const PAGE_SIZE = 50;

const TABS: Array<{ state: ReviewState; label: string }> = [
  { state: 'in_review', label: 'Waiting for review' },
  { state: 'changes_requested', label: STATE_WORDS.changes_requested },
  { state: 'approved', label: STATE_WORDS.approved },
  { state: 'withdrawn', label: STATE_WORDS.withdrawn },
];

const isState = (value: string): value is ReviewState => TABS.some((tab) => tab.state === value);

/** What an empty tab says, and what to do about it: a reviewer waits for writers, a writer submits. */
function emptyWords(state: ReviewState, mine: boolean, reviewer: boolean): string {
  switch (state) {
    case 'in_review':
      if (mine)
        return 'Nothing of yours is waiting for review. Open a draft and choose “Submit for review” when it is ready.';
      return reviewer
        ? 'Nothing is waiting for review. When a writer submits a draft, it is listed here and you are told under the bell.'
        : 'Nothing is waiting for review. Open a draft and choose “Submit for review” when it is ready for an editor.';
    case 'changes_requested':
      return mine
        ? 'None of your drafts is waiting on changes.'
        : 'No draft is waiting on changes. A draft sent back with “Request changes” waits here until it is resubmitted.';
    case 'approved':
      return mine ? 'None of your drafts has been approved yet.' : 'Nothing approved yet.';
    case 'withdrawn':
      return mine
        ? 'You have withdrawn nothing from review.'
        : 'Nothing withdrawn. A draft taken back from review is listed here.';
  }
}

/** The review queue: drafts submitted for review, by state, newest activity first, each opening in the studio. */
export function ReviewsScreen({ workspace }: { workspace: WorkspaceSummary }) {
  const [search, updateSearch] = useSearchState(['state', 'mine'] as const);
  const state: ReviewState = isState(search.state) ? search.state : 'in_review';
  const mine = search.mine === 'true';
  const reviewer = can(workspace, 'posts:write') || can(workspace, 'pages:write');
  // A new tab or filter is a new query key, so it starts again from the newest.
  const queue = useInfiniteQuery({
    queryKey: reviewKeys.queue(workspace.id, { state, mine }),
    queryFn: ({ pageParam }) => readQueue(workspace.id, { state, mine, before: pageParam, limit: PAGE_SIZE }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
    placeholderData: keepPreviousData,
  });
  const reviews = queue.data?.pages.flatMap((page) => page.data) ?? null;
  const counts = queue.data?.pages[0]?.counts;
  const failed = queue.isError && !queue.isFetching ? queue.error : null;
  // The counts are of everyone's reviews: beside "Submitted by me" they would not match the list.
  const count = (tab: ReviewState) =>
    !mine && counts && (tab === 'in_review' || tab === 'changes_requested') ? ` (${counts[tab]})` : '';

  return (
    <>
      <div className="page-header">
        <h1>Review</h1>
      </div>
      <p className="lead">
        Drafts submitted for review, the latest activity first.{' '}
        {reviewer
          ? 'Open one to comment, ask for changes, or approve and publish it.'
          : 'Open one to read its comments and answer them.'}
      </p>
      <div className="review-filters">
        <fieldset className="segmented">
          <legend>Show</legend>
          {TABS.map((tab) => (
            <label key={tab.state}>
              <input
                type="radio"
                name="review-state"
                value={tab.state}
                checked={state === tab.state}
                onChange={() => updateSearch({ state: tab.state === 'in_review' ? '' : tab.state })}
              />
              <span>
                {tab.label}
                {count(tab.state)}
              </span>
            </label>
          ))}
        </fieldset>
        <label className="check review-mine">
          <input
            type="checkbox"
            checked={mine}
            onChange={(event) => updateSearch({ mine: event.target.checked ? 'true' : '' })}
          />
          <span>Submitted by me</span>
        </label>
      </div>

      {failed !== null && !queue.isFetchNextPageError && (
        <ErrorMessage error={failed} onRetry={() => void queue.refetch()} />
      )}
      {queue.isPending && <Loading label="Loading the reviews…" />}
      {reviews && reviews.length === 0 && !queue.isPlaceholderData && (
        <Empty>
          {emptyWords(state, mine, reviewer)}
          {!reviewer && state === 'in_review' && (
            <>
              {' '}
              <Link to={`/w/${workspace.id}/${can(workspace, 'posts:read') ? 'posts' : 'pages'}`}>
                Go to your drafts
              </Link>
            </>
          )}
        </Empty>
      )}
      {reviews && reviews.length > 0 && (
        <>
          <ReviewTable
            workspaceId={workspace.id}
            reviews={reviews}
            caption={`${TABS.find((tab) => tab.state === state)!.label}${mine ? ', submitted by me' : ''}`}
            busy={queue.isFetching}
          />
          {failed !== null && queue.isFetchNextPageError && (
            <ErrorMessage error={failed} onRetry={() => void queue.fetchNextPage()} />
          )}
          {queue.hasNextPage && !queue.isPlaceholderData && (
            <p className="review-more">
              <button type="button" disabled={queue.isFetchingNextPage} onClick={() => void queue.fetchNextPage()}>
                {queue.isFetchingNextPage ? 'Loading more…' : 'Show more'}
              </button>
            </p>
          )}
        </>
      )}
    </>
  );
}
