import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { Post } from '../../src/modules/posts/posts.schemas.js';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';

/** A title whose answer the presenter breaks on purpose: the write's answer then cannot be serialized. */
const UNWRITABLE = 'An answer that cannot be written out';

vi.mock('../../src/modules/posts/posts.presenter.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/modules/posts/posts.presenter.js')>();
  return {
    ...original,
    presentPost: (...args: Parameters<typeof original.presentPost>) => {
      const post = original.presentPost(...args);
      // The schema requires a title: fast-json-stringify throws on an answer without one.
      if (post.title === UNWRITABLE) return { ...post, title: undefined } as unknown as Post;
      return post;
    },
  };
});

describeEachDialect('a write whose answer cannot be serialized does not commit', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect, { contract: false });
  });
  afterAll(() => ctx?.close());

  const send = (key: string, method: 'POST' | 'PATCH', path: string, payload: Record<string, unknown>) =>
    ctx.app.inject({ method, url: `${EXTERNAL}${path}`, headers: { 'x-api-key': key }, payload });
  const count = async (table: 'posts' | 'content_events', workspaceId: string) =>
    Number(
      (
        await ctx.runtime.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('workspace_id', '=', workspaceId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('a create answers 500 and leaves no post and no event behind', async () => {
    const { key, workspace } = await ctx.ownerKey();
    const response = await send(key, 'POST', '/posts', { title: UNWRITABLE });
    expect(response.statusCode).toBe(500);
    expect(await count('posts', workspace.id)).toBe(0);
    expect(await count('content_events', workspace.id)).toBe(0);
  });

  it('a PATCH answers 500 and leaves the post as it was', async () => {
    const { key, workspace } = await ctx.ownerKey();
    const created = await send(key, 'POST', '/posts', { title: 'Fine' });
    expect(created.statusCode).toBe(201);
    const id = (created.json() as Post).id;
    expect((await send(key, 'PATCH', `/posts/${id}`, { title: UNWRITABLE })).statusCode).toBe(500);
    const read = await ctx.app.inject({ method: 'GET', url: `${EXTERNAL}/posts/${id}`, headers: { 'x-api-key': key } });
    expect((read.json() as Post).title).toBe('Fine');
    expect(await count('content_events', workspace.id)).toBe(1);
  });

  it('a write that succeeds answers the bytes it sealed, once serialized', async () => {
    const { key } = await ctx.ownerKey();
    const created = await send(key, 'POST', '/posts', { title: 'Sealed' });
    expect(created.statusCode).toBe(201);
    expect((created.json() as Post).title).toBe('Sealed');
  });
});
