/* eslint-disable @typescript-eslint/no-explicit-any -- a migration is written against the schema as it was then */
import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectHelpers } from '../dialects/dialect.js';

/**
 * Stored read forms of posts (docs/decisions.md, "Stored post renders"): each post's serialized answer,
 * labelled with what it was built from. `posts.render_stamp` counts the writes to a post and to the
 * posts it lists as related; `workspaces.embeds_version` counts the writes to everything else a post
 * embeds. A render is served only while both labels still match. `workspaces.live_post_count` is the
 * total of an unfiltered list, kept by the writes that create and delete posts: counting 100,000 rows
 * took longer than the rest of the answer.
 */
export function postRenders({ types: t }: DialectHelpers): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('posts')
        .addColumn('render_stamp', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('workspaces')
        .addColumn('embeds_version', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('workspaces')
        .addColumn('live_post_count', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`update workspaces set live_post_count = (select count(*) from posts where posts.workspace_id = workspaces.id and posts.deleted_at is null)`.execute(
        db,
      );
      await db.schema
        .createTable('post_renders')
        .addColumn('post_id', t.uuid, (c) => c.primaryKey().references('posts.id').onDelete('cascade'))
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('render_stamp', 'integer', (c) => c.notNull())
        .addColumn('embeds_version', 'integer', (c) => c.notNull())
        .addColumn('format', 'text', (c) => c.notNull())
        .addColumn('json', 'text', (c) => c.notNull())
        .execute();
      // A write to a post re-stamps the posts that list it as related: found through this index.
      await db.schema
        .createIndex('related_posts_related_idx')
        .on('related_posts')
        .columns(['related_post_id', 'post_id'])
        .execute();
    },
  };
}
