import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import { CONTENT_KINDS } from '../../src/content-kinds.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createPostReads } from '../../src/modules/posts/read/post-reads.js';
import { renderFormat } from '../../src/modules/posts/read/post-renders.js';
import { createPostsService } from '../../src/modules/posts/posts.service.js';
import type { Post } from '../../src/modules/posts/posts.schemas.js';
import { installContentKinds } from '../../src/writes/kinds.js';
import { describeEachDialect } from '../helpers/database.js';
import { databaseAtMigration } from '../helpers/migration.js';

const PUBLIC_URL = 'http://localhost:3000';

/*
 * Migration 0010 labels stored renders with their related posts' stamps. A render stored before it gets 0:
 * still served while the post's related posts have not been written since, never once one has.
 */
describeEachDialect('migration 0010: renders stored before it', (dialect) => {
  const { now, userId, workspaceId, raw, handle } = databaseAtMigration(dialect, '0009_workspace_id_indexes');
  const actor = {
    workspaceId,
    userId,
    apiKeyId: null,
    isOwner: true,
    permissions: new Set<never>(),
    contentVersion: 0,
  };

  /** A post as 0009's code wrote it: today's service is only used once the schema is the latest. */
  async function insertPost(title: string): Promise<string> {
    const id = crypto.randomUUID();
    await raw()
      .insertInto('posts')
      .values({
        id,
        workspace_id: workspaceId,
        slug: id,
        title,
        excerpt: '',
        body_json: '[]',
        body_text: '',
        search_text: '',
        search_head: title.toLowerCase(),
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
    return id;
  }

  it('a render of a post whose related post was not written is served; after a write of it, never', async () => {
    const related = await insertPost('Related');
    const post = await insertPost('Lists it');
    await raw()
      .insertInto('related_posts')
      .values({ workspace_id: workspaceId, post_id: post, related_post_id: related, position: 0 })
      .execute();
    // What a reader stored before 0010: labelled with the post's stamp and the embeds version alone.
    const labels = await raw()
      .selectFrom('posts')
      .innerJoin('workspaces', 'workspaces.id', 'posts.workspace_id')
      .select(['posts.render_stamp', 'workspaces.embeds_version'])
      .where('posts.id', '=', post)
      .executeTakeFirstOrThrow();
    const stored = '{"stored":"before 0010"}';
    await raw()
      .insertInto('post_renders')
      .values({ post_id: post, workspace_id: workspaceId, ...labels, format: renderFormat(PUBLIC_URL), json: stored })
      .execute();

    await migrateToLatest(handle());
    // A service built on its own, not by createServices: it hands the write path its content kinds the same way.
    installContentKinds(CONTENT_KINDS);
    const posts = createPostsService(handle(), PUBLIC_URL);
    const reads = createPostReads(handle(), PUBLIC_URL);
    expect((await reads.get(actor, post)).toString()).toBe(stored);

    await posts.update(actor, related, { title: 'Related, renamed' });
    const shown = JSON.parse((await reads.get(actor, post)).toString()) as Post;
    expect(shown.relatedPosts.map((one) => one.title)).toEqual(['Related, renamed']);
  });
});
