import { useCallback, useMemo, useRef, useState } from 'react';
import { api, ApiError, request, ws } from '../api';
import type { Page, Pending, Post } from '../types';

type Kind = 'post' | 'page';

/**
 * The pending set of a live post or page (docs/publishing.md): the studio's saves while it is published, kept
 * apart from the live version until Update. Every request names the set this editor last read or saved, so a set
 * another writer saved since is refused (409 "pending_changed"), never replaced unseen.
 */
export function usePending(workspaceId: string, kind: Kind) {
  const [pending, setPendingState] = useState<Pending | null>(null);
  // The same, read by a request at once (the state is the last render's).
  const latest = useRef<Pending | null>(null);
  const setPending = useCallback((next: Pending | null) => {
    latest.current = next;
    setPendingState(next);
  }, []);

  const requests = useMemo(() => {
    const path = (id: string) => ws(workspaceId, `/${kind}s/${encodeURIComponent(id)}/pending`);
    const named = (): Record<string, string> =>
      latest.current ? { 'If-Match': `"${latest.current.updatedAt}"` } : { 'If-None-Match': '*' };
    return {
      /** The set on the server now, or null when there is none. */
      async read(id: string): Promise<Pending | null> {
        try {
          return await api.get<Pending>(path(id));
        } catch (error) {
          if (error instanceof ApiError && error.status === 404) return null;
          throw error;
        }
      },
      /** Replaces the set with `changes`, made on the live version `baseVersion`. */
      async save(id: string, baseVersion: string, changes: Record<string, unknown>): Promise<Pending> {
        const saved = await request<Pending>('PUT', path(id), { baseVersion, changes }, { extraHeaders: named() });
        setPending(saved);
        return saved;
      },
      async discard(id: string): Promise<null> {
        if (latest.current) await request<Pending>('DELETE', path(id), undefined, { extraHeaders: named() });
        setPending(null);
        return null;
      },
      /** Update: the set written to the live version, with a status move when one goes with it. */
      async apply(id: string, status?: string): Promise<Post | Page> {
        const written = await request<Post | Page>('POST', `${path(id)}/apply`, status ? { status } : {}, {
          extraHeaders: named(),
        });
        setPending(null);
        return written;
      },
    };
  }, [workspaceId, kind, setPending]);

  return { pending, setPending, latest, ...requests };
}
