/* eslint-disable @typescript-eslint/no-explicit-any -- a migration is written against the schema as it was then */
import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectHelpers } from '../dialects/dialect.js';

/**
 * Each tag's count of live posts, kept by triggers on post_tags and posts, so a list filtered by a tag alone
 * gives its total from one row: counted, each of the tag's posts was looked up among the workspace's live
 * posts (docs/decisions.md, "Kept counts per status and per tag").
 */
export function postTagCounts(helpers: DialectHelpers): Migration {
  return {
    async up(db: Kysely<any>) {
      const t = helpers.types;
      await db.schema
        .createTable('post_tag_counts')
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('tag_id', t.uuid, (c) => c.primaryKey().references('tags.id').onDelete('cascade'))
        .addColumn('live_count', 'integer', (c) => c.notNull())
        .execute();
      await sql`insert into post_tag_counts (workspace_id, tag_id, live_count)
        select posts.workspace_id, post_tags.tag_id, count(*) from post_tags
        inner join posts on posts.id = post_tags.post_id where posts.deleted_at is null
        group by posts.workspace_id, post_tags.tag_id`.execute(db);
      await helpers.createTagCountTriggers(db);
    },
  };
}
