/* eslint-disable @typescript-eslint/no-explicit-any -- a migration is written against the schema as it was then */
import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectHelpers } from '../dialects/dialect.js';

/**
 * Each workspace's count of live posts per status, kept by triggers on posts, so a list filtered by status alone
 * (a blog's front page: `status=published`) gives its total from one row instead of counting the index, which
 * on PostgreSQL visits every matching row (docs/decisions.md, "Kept counts per status and per tag").
 */
export function postStatusCounts(helpers: DialectHelpers): Migration {
  return {
    async up(db: Kysely<any>) {
      const t = helpers.types;
      await db.schema
        .createTable('post_status_counts')
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('live_count', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('post_status_counts_pk', ['workspace_id', 'status'])
        .execute();
      await sql`insert into post_status_counts (workspace_id, status, live_count)
        select workspace_id, status, count(*) from posts where deleted_at is null group by workspace_id, status`.execute(
        db,
      );
      await helpers.createStatusCountTriggers(db);
      // The sum of a workspace's counts is its live posts: 0006's counter, kept by hand by each write that
      // created or deleted a post, goes.
      await db.schema.alterTable('workspaces').dropColumn('live_post_count').execute();
    },
  };
}
