import { MutationObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../dashboard/src/api.js';
import { createQueryClient, keys, shouldRetry, writeOptions } from '../../dashboard/src/queries.js';

const W1 = 'w-1';
const W2 = 'w-2';

describe("the dashboard's query cache", () => {
  it('marks the written resource of that workspace stale after a write, and nothing else', async () => {
    const client = createQueryClient();
    const tags = keys.list(W1, 'tags', { page: 1 });
    const tag = keys.item(W1, 'tags', 't1');
    const authors = keys.list(W1, 'authors', { page: 1 });
    const otherTags = keys.list(W2, 'tags', { page: 1 });
    for (const key of [tags, tag, authors, otherTags]) await client.prefetchQuery({ queryKey: key, queryFn: () => 1 });

    const write = new MutationObserver(
      client,
      writeOptions(client, async (name: string) => ({ name }), [keys.resource(W1, 'tags')]),
    );
    expect(await write.mutate(['News'])).toEqual({ name: 'News' });
    const stale = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;
    expect(stale(tags)).toBe(true);
    expect(stale(tag)).toBe(true);
    expect(stale(authors)).toBe(false);
    expect(stale(otherTags)).toBe(false);
  });

  it('leaves everything as it was after a refused write', async () => {
    const client = createQueryClient();
    const tags = keys.list(W1, 'tags');
    await client.prefetchQuery({ queryKey: tags, queryFn: () => 1 });
    const write = new MutationObserver(
      client,
      writeOptions(client, async () => {
        throw new ApiError(409, 'CONFLICT', 'taken');
      }, [keys.resource(W1, 'tags')]),
    );
    await expect(write.mutate([])).rejects.toBeInstanceOf(ApiError);
    expect(client.getQueryState(tags)?.isInvalidated).toBe(false);
  });

  it('asks the server once for two readers of one key', async () => {
    const client = createQueryClient();
    let calls = 0;
    const load = async () => {
      calls += 1;
      return 'x';
    };
    const [a, b] = await Promise.all([
      client.fetchQuery({ queryKey: keys.resource(W1, 'settings'), queryFn: load }),
      client.fetchQuery({ queryKey: keys.resource(W1, 'settings'), queryFn: load }),
    ]);
    expect([a, b, calls]).toEqual(['x', 'x', 1]);
  });

  it('retries a read that failed for want of the server, never one the server refused', () => {
    expect(shouldRetry(0, new ApiError(0, 'NETWORK', 'unreachable'))).toBe(true);
    expect(shouldRetry(0, new ApiError(503, 'UNAVAILABLE', 'away'))).toBe(true);
    expect(shouldRetry(2, new ApiError(503, 'UNAVAILABLE', 'away'))).toBe(false);
    for (const status of [400, 401, 403, 404, 409, 429])
      expect(shouldRetry(0, new ApiError(status, 'X', ''))).toBe(false);
  });
});
