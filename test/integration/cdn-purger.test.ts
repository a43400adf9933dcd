import { afterAll, beforeAll, expect, it } from 'vitest';
import { startCdnPurger } from '../../src/modules/cdn/cdn-purger.js';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { createPost, postsApi } from '../helpers/posts.js';

const quiet = { warn() {}, info() {}, error() {} };

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describeEachDialect('CDN purger', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
  });
  afterAll(() => ctx?.close());

  it('purges the keys of each write once its target takes them, and loses none while it refuses', async () => {
    const { workspace, key } = await ctx.ownerKey();
    const api = postsApi(ctx);
    // Written before the purger starts: history is not replayed.
    const old = await createPost(api, key, { title: 'Before', status: 'published' });
    const purged: string[][] = [];
    let refusing = true;
    const purger = startCdnPurger(ctx.runtime.database, {
      log: quiet,
      pollMs: 20,
      target: async (keys) => {
        if (refusing) throw new Error('CDN away');
        purged.push([...keys]);
      },
    });
    try {
      const post = await createPost(api, key, { title: 'While away', status: 'published' });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(purged).toEqual([]);
      refusing = false;
      await until(() => purged.length > 0, 'the purge after the CDN came back');
      const all = purged.flat();
      expect(all).toEqual(expect.arrayContaining([`post-${post.id}`, `posts-${workspace.id}`]));
      expect(all).not.toContain(`post-${old.id}`);
      purged.length = 0;
      await api.patch(key, old.id, { title: 'After' });
      await until(() => purged.flat().includes(`post-${old.id}`), 'the purge of the edit');
      expect(purged.flat()).not.toContain(`post-${post.id}`);
    } finally {
      purger.stop();
    }
  });
});
