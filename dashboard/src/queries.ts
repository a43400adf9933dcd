import {
  keepPreviousData,
  QueryClient,
  useMutation,
  useQuery,
  useQueryClient,
  type MutationOptions,
  type QueryKey,
} from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { ApiError } from './api.js';

/** A refusal (4xx) says the same thing the second time; a dropped connection, a 5xx or a 503 may not. */
export function shouldRetry(failures: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failures < 2;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        retryDelay: (attempt) => Math.min(500 * 2 ** attempt, 2000),
        // A screen opened again shows what it had at once and reads afresh behind it (staleTime 0).
        refetchOnWindowFocus: false,
        gcTime: 5 * 60_000,
      },
      // A write is never repeated by itself: a second POST would create a second thing.
      mutations: { retry: false },
    },
  });
}

/**
 * Query keys: everything of a workspace starts `['w', workspaceId, resource]`, so a write invalidates one
 * resource of one workspace (its lists and items) with `keys.resource(…)`, and a workspace switch never mixes
 * two workspaces' answers.
 */
export const keys = {
  session: ['session'] as const,
  setup: ['setup'] as const,
  capabilities: ['capabilities'] as const,
  resource: (workspaceId: string, resource: string) => ['w', workspaceId, resource] as const,
  list: (workspaceId: string, resource: string, params: Record<string, unknown> = {}) =>
    ['w', workspaceId, resource, 'list', params] as const,
  item: (workspaceId: string, resource: string, id: string, ...more: unknown[]) =>
    ['w', workspaceId, resource, 'item', id, ...more] as const,
};

export type Loaded<T> =
  | { state: 'loading'; data: T | null; error: null }
  | { state: 'ready'; data: T; error: null }
  | { state: 'error'; data: T | null; error: unknown };

/**
 * A read through the query cache: shared by every screen that asks for the same key (one request for two
 * askers), retried by `shouldRetry`, kept while the next page loads so a list does not flash empty. `state` is
 * 'loading' whenever a read is under way, and `reload()` says so from the same render that asked for it (a
 * dialog closing after a write): in between, the old data would read as current.
 */
export function useApi<T>(
  key: QueryKey,
  load: () => Promise<T>,
  { enabled = true }: { enabled?: boolean } = {},
): Loaded<T> & { reload(): void } {
  const query = useQuery({ queryKey: key, queryFn: load, placeholderData: keepPreviousData, enabled });
  const [reloading, setReloading] = useState(false);
  const { refetch } = query;
  const reload = useCallback(() => {
    setReloading(true);
    void refetch().finally(() => setReloading(false));
  }, [refetch]);
  const data = (query.data ?? null) as T | null;
  if (query.isError && !reloading && !query.isFetching) return { state: 'error', data, error: query.error, reload };
  if (reloading || query.isFetching || query.isPending || query.isPlaceholderData)
    return { state: 'loading', data, error: null, reload };
  return { state: 'ready', data: data as T, error: null, reload };
}

/** A write's mutation options: after a success, each key's queries are stale and the shown ones read again. */
export function writeOptions<A extends unknown[], R>(
  client: QueryClient,
  run: (...args: A) => Promise<R>,
  invalidates: QueryKey[],
): MutationOptions<R, unknown, A> {
  return {
    mutationFn: (args: A) => run(...args),
    onSuccess: () => {
      for (const queryKey of invalidates) void client.invalidateQueries({ queryKey });
    },
  };
}

/**
 * A write: its pending flag and error for buttons that must not be pressed twice, `execute` resolving to the
 * answer (undefined when it failed: the error is in `error`), and after a success the given keys invalidated,
 * so every list or item it changed is read again wherever it is shown.
 */
export function useWrite<A extends unknown[], R>(run: (...args: A) => Promise<R>, invalidates: QueryKey[] = []) {
  const mutation = useMutation(writeOptions(useQueryClient(), run, invalidates));
  const [cleared, setCleared] = useState<unknown>(undefined);
  const { mutateAsync, reset } = mutation;
  const execute = useCallback(
    async (...args: A): Promise<R | undefined> => {
      setCleared(undefined);
      try {
        return await mutateAsync(args);
      } catch {
        return undefined;
      }
    },
    [mutateAsync],
  );
  // Forms set an error of their own (a check made before sending) or clear the last one.
  const setError = useCallback(
    (error: unknown) => {
      if (error === null) reset();
      setCleared(error === null ? undefined : error);
    },
    [reset],
  );
  const error = cleared !== undefined ? cleared : (mutation.error ?? null);
  return { execute, pending: mutation.isPending, error, setError };
}
