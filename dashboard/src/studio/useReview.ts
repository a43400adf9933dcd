import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../api';
import { useApi } from '../queries';
import {
  actOnReview,
  markRead,
  readNotifications,
  readReview,
  reviewKeys,
  type ReviewAct,
} from '../screens/reviews/review-api';
import type { Review } from '../types';
import type { Kind } from './useStudio';

/**
 * The review of the post or page in the studio: its thread, read once the copy exists on the server, and the
 * writes on it. `id` may be passed to `act` for a post saved a moment ago, before this render knows its id.
 */
export function useReview(workspaceId: string, kind: Kind, id: string | null) {
  const queryClient = useQueryClient();
  const thread = useApi(reviewKeys.thread(workspaceId, kind, id ?? ''), () => readReview(workspaceId, kind, id!), {
    enabled: id !== null,
  });
  const [busy, setBusy] = useState<ReviewAct['act'] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const { reload } = thread;

  // What the bell holds, as the bell reads it (this never asks the server itself).
  const inbox = useQuery({
    queryKey: reviewKeys.notifications(workspaceId),
    queryFn: () => readNotifications(workspaceId),
    enabled: false,
  });
  // Opening the draft is reading what the bell said of its review so far: those notifications are marked read, once.
  // What comes while it stays open is news, and stays unread for the bell to tell.
  const reviewId = thread.data?.id ?? null;
  const marked = useRef<string | null>(null);
  useEffect(() => {
    if (reviewId === null || inbox.data === undefined || marked.current === reviewId) return;
    marked.current = reviewId;
    const ids = inbox.data.data
      .filter((notification) => notification.readAt === null && notification.review.id === reviewId)
      .map((notification) => notification.id);
    if (ids.length === 0) return;
    const refresh = () => queryClient.invalidateQueries({ queryKey: reviewKeys.notifications(workspaceId) });
    void markRead(workspaceId, ids).then(refresh, () => undefined);
  }, [reviewId, inbox.data, workspaceId, queryClient]);

  const act = useCallback(
    async (what: ReviewAct, target: string | null = id): Promise<Review | null> => {
      if (target === null) return null;
      setBusy(what.act);
      setError(null);
      try {
        const review = await actOnReview(workspaceId, kind, target, what);
        // A read of the thread begun before the write (the first one of a post saved a moment ago) would land
        // after this answer and put the review back as it was: it is called off first.
        await queryClient.cancelQueries({ queryKey: reviewKeys.thread(workspaceId, kind, target) });
        queryClient.setQueryData(reviewKeys.thread(workspaceId, kind, target), review);
        // The queue, its count in the navigation, and the bell (a decision may have told this member too).
        void queryClient.invalidateQueries({
          predicate: (query) => {
            const key = query.queryKey;
            return (
              key[0] === 'w' &&
              key[1] === workspaceId &&
              (key[2] === 'notifications' || (key[2] === 'reviews' && key[3] !== 'item'))
            );
          },
        });
        return review;
      } catch (refused) {
        setError(refused);
        // Someone else acted first: the thread is read again so what they did shows under the refusal.
        if (refused instanceof ApiError && (refused.status === 409 || refused.status === 404)) reload();
        return null;
      } finally {
        setBusy(null);
      }
    },
    [workspaceId, kind, id, queryClient, reload],
  );

  return {
    review: thread.data ?? null,
    loadError: thread.state === 'error' ? thread.error : null,
    reload,
    act,
    busy,
    error,
    clearError: () => setError(null),
    /** A refusal of the studio's own, said where the review's are (a save that had to come first). */
    fail: (words: string) => setError(words),
  };
}

export type ReviewHandle = ReturnType<typeof useReview>;
