/* eslint-disable @typescript-eslint/no-explicit-any -- a migration is written against the schema as it was then */
import { sql, type Kysely, type Migration, type RawBuilder } from 'kysely';

/** The sort keys of GET /posts whose columns are never null. */
const PLAIN_SORTS = ['created_at', 'updated_at', 'title', 'status', 'seo_score', 'readability_score'];

/** The equality filters of GET /posts: each gets an index of its own per order. */
const FILTERS = ['status', 'category_id', 'author_id'];

/**
 * The columns of each order after the workspace: the sort key, then `id`, the tiebreak. `publishedAt` puts
 * posts never published after the rest in both directions, which neither database's own NULL order does in
 * both: the list orders by `(published_at is null)` first, and each direction has its index.
 */
const ORDERS: Array<{ name: string; columns: RawBuilder<unknown> }> = [
  ...PLAIN_SORTS.map((column) => ({ name: column, columns: sql`${sql.ref(column)}, id` })),
  { name: 'published_at', columns: sql`(published_at is null), published_at, id` },
  { name: 'published_at_desc', columns: sql`(published_at is null), published_at desc, id desc` },
];

/**
 * Every list shape of GET /posts read from one index in the page's order (test/integration/list-plans.test.ts):
 * for each order, an index of the workspace's live posts, and one per equality filter with the filter's column
 * first. 0001's indexes ended at the sort column, so both databases sorted every tie by id (for `status`, most
 * of a workspace) and `publishedAt`'s null term sorted every live row, before the first page could be cut; and
 * a filter either sorted all its matches or walked the order's index reading each row, bodies included.
 * `created_at` ends the unfiltered indexes, so a date range on another order is checked in the index too.
 *
 * Each ends with `deleted_at`, null in every entry: SQLite reads the row for any column a statement names that
 * its index lacks, the partial index's own condition included, and a post's deleted_at lies past its body.
 * With it, a page's ids and a filter's count are read from the index alone.
 */
export function postsSortIndexes(): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const column of [...PLAIN_SORTS, 'published_at', 'author_id', 'category_id'])
        await db.schema.dropIndex(`posts_workspace_${column}_idx`).execute();
      // A tag's posts, counted: each looked up by id in the workspace's live posts without reading its row.
      await sql`create index posts_live_id_idx on posts (workspace_id, id, deleted_at) where deleted_at is null`.execute(
        db,
      );
      for (const { name, columns } of ORDERS) {
        const created = name === 'created_at' ? sql`` : sql`, created_at`;
        await sql`create index ${sql.id(`posts_live_${name}_idx`)} on posts (workspace_id, ${columns}${created}, deleted_at) where deleted_at is null`.execute(
          db,
        );
        // A filter on the order's own column is a range of the order's index.
        for (const filter of FILTERS.filter((column) => column !== name))
          await sql`create index ${sql.id(`posts_live_${filter}_${name}_idx`)} on posts (workspace_id, ${sql.ref(filter)}, ${columns}, deleted_at) where deleted_at is null`.execute(
            db,
          );
      }
    },
  };
}
