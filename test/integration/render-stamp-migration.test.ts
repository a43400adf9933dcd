import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { migrateTo, migrateToLatest } from '../../src/db/migrate.js';
import { renderFormat } from '../../src/modules/posts/posts.renders.js';
import { createPostsService } from '../../src/modules/posts/posts.service.js';
import type { Post } from '../../src/modules/posts/posts.schemas.js';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../helpers/database.js';

const PUBLIC_URL = 'http://localhost:3000';

/*
 * Migration 0010 labels stored renders with their related posts' stamps. A render stored before it gets 0:
 * still served while the post's related posts have not been written since, never once one has.
 */
describeEachDialect('migration 0010: renders stored before it', (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  // Written against the schema of 0009, which the application's types no longer describe.
  const raw = () => handle.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  const now = new Date().toISOString();
  const workspaceId = crypto.randomUUID();
  const actor = { workspaceId, userId: crypto.randomUUID(), apiKeyId: null, isOwner: true, permissions: new Set<never>(), contentVersion: 0 };

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    handle = createDatabase({ dataDir: database.dataDir, databaseUrl: database.databaseUrl });
    await migrateTo(handle, '0009_workspace_id_indexes');
    await raw().insertInto('users').values({ id: actor.userId, email: 'owner@example.com', password_hash: null, created_at: now, updated_at: now }).execute();
    await raw().insertInto('workspaces').values({ id: workspaceId, name: 'W', slug: 'w', owner_user_id: actor.userId, created_at: now, updated_at: now }).execute();
  });
  afterAll(async () => {
    await handle?.close();
    await database?.drop();
  });

  it('a render of a post whose related post was not written is served; after a write of it, never', async () => {
    const posts = createPostsService(handle, PUBLIC_URL);
    const related = await posts.create(actor, { title: 'Related' });
    const post = await posts.create(actor, { title: 'Lists it', relatedPostIds: [related.id] });
    // What a reader stored before 0010: labelled with the post's stamp and the embeds version alone.
    const labels = await raw()
      .selectFrom('posts')
      .innerJoin('workspaces', 'workspaces.id', 'posts.workspace_id')
      .select(['posts.render_stamp', 'workspaces.embeds_version'])
      .where('posts.id', '=', post.id)
      .executeTakeFirstOrThrow();
    const stored = '{"stored":"before 0010"}';
    await raw()
      .insertInto('post_renders')
      .values({ post_id: post.id, workspace_id: workspaceId, ...labels, format: renderFormat(PUBLIC_URL), json: stored })
      .execute();

    await migrateToLatest(handle);
    expect((await posts.get(actor, post.id)).toString()).toBe(stored);

    await posts.update(actor, related.id, { title: 'Related, renamed' });
    const shown = JSON.parse((await posts.get(actor, post.id)).toString()) as Post;
    expect(shown.relatedPosts.map((one) => one.title)).toEqual(['Related, renamed']);
  });
});
