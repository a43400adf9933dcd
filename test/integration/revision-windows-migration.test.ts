import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import { CONTENT_KINDS } from '../../src/content-kinds.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createPostsService } from '../../src/modules/posts/posts.service.js';
import { installContentKinds } from '../../src/writes/kinds.js';
import { describeEachDialect } from '../helpers/database.js';
import { databaseAtMigration } from '../helpers/migration.js';

/*
 * Migration 0026: a revision kept before it has no window. However recent, and by the same writer, it stays a
 * step of its own: the first draft save after the migration keeps a new revision.
 */
describeEachDialect('migration 0026: revisions kept before it', (dialect) => {
  const { now, userId, workspaceId, raw, handle } = databaseAtMigration(dialect, '0024_import_ledger');
  const actor = {
    workspaceId,
    userId,
    apiKeyId: null,
    isOwner: true,
    permissions: new Set<never>(),
    contentVersion: 0,
  };

  it('closes them: the next save of the draft by the same writer is a revision of its own', async () => {
    const id = crypto.randomUUID();
    await raw()
      .insertInto('posts')
      .values({
        id,
        workspace_id: workspaceId,
        slug: 'before',
        title: 'Before',
        excerpt: '',
        body_json: '[]',
        body_text: '',
        search_text: '',
        search_head: 'before',
        toc_items: '[]',
        word_count: 0,
        reading_time_min: 1,
        status: 'draft',
        is_how_to: false,
        view_count: 0,
        schema_type: 'BlogPosting',
        structured_blocks: '[]',
        seo_score: 0,
        readability_score: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await raw()
      .insertInto('post_revisions')
      .values({
        workspace_id: workspaceId,
        resource_id: id,
        n: 1,
        action: 'updated',
        slug: 'before',
        title: 'Before',
        fields: '{"status":"draft"}',
        actor_user_id: userId,
        actor_api_key_id: null,
        created_at: now,
      })
      .execute();

    await migrateToLatest(handle());
    installContentKinds(CONTENT_KINDS);
    await createPostsService(handle(), 'http://localhost:3000').update(actor, id, { title: 'After' });

    const revisions = await handle()
      .db.selectFrom('post_revisions')
      .select(['n', 'title', 'opened_at'])
      .where('resource_id', '=', id)
      .orderBy('n')
      .execute();
    expect(revisions.map((r) => [r.n, r.title, r.opened_at === null])).toEqual([
      [1, 'Before', true],
      [2, 'After', false],
    ]);
  });
});
