import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { markRead, readNotifications, reviewKeys } from '../reviews/review-api';
import type { ReviewNotifications } from '../../types';

/** How often the bell asks; a busy team hears of a review within a minute, and the server is asked little. */
export const REFRESH_MS = 60_000;

/**
 * The member's notifications in the workspace: read with the shell, every REFRESH_MS while the page is shown,
 * and when the window gets the focus back. Signed out, the shell and this go, and so does the timer.
 */
export function useNotifications(workspaceId: string, { enabled }: { enabled: boolean }) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: reviewKeys.notifications(workspaceId),
    queryFn: () => readNotifications(workspaceId),
    refetchInterval: REFRESH_MS,
    enabled,
  });
  const { refetch } = query;

  useEffect(() => {
    if (!enabled) return;
    // A read under way already answers for this focus.
    const onFocus = () => void refetch({ cancelRefetch: false });
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [enabled, refetch]);

  // News (a notification not seen before) means a review moved: the queue, its count and an open thread are read
  // again, so what the bell says and what the screens show agree.
  const newest = query.data?.data[0]?.id ?? null;
  const heard = useRef<string | null | undefined>(undefined);
  useEffect(() => {
    if (query.data === undefined) return;
    if (heard.current !== undefined && heard.current !== newest)
      void queryClient.invalidateQueries({ queryKey: reviewKeys.all(workspaceId) });
    heard.current = newest;
  }, [newest, query.data, queryClient, workspaceId]);

  /** Marks these read (all without ids), shown at once; the server's count replaces the guess when it answers. */
  const read = useCallback(
    async (ids?: string[]) => {
      const at = new Date().toISOString();
      const shown = reviewKeys.notifications(workspaceId);
      queryClient.setQueryData<ReviewNotifications>(shown, (old) => {
        if (!old) return old;
        const marked = old.data.filter((n) => n.readAt === null && (!ids || ids.includes(n.id))).map((n) => n.id);
        return {
          data: old.data.map((n) => (marked.includes(n.id) ? { ...n, readAt: at } : n)),
          unread: ids ? Math.max(0, old.unread - marked.length) : 0,
        };
      });
      try {
        const answer = await markRead(workspaceId, ids);
        queryClient.setQueryData<ReviewNotifications>(shown, (old) => (old ? { ...old, unread: answer.unread } : old));
      } catch {
        // Not marked after all: what the server holds is shown again.
        void queryClient.invalidateQueries({ queryKey: shown });
      }
    },
    [queryClient, workspaceId],
  );

  return { query, read };
}
