/* eslint-disable @typescript-eslint/no-explicit-any -- a migration is written against the schema as it was then */
import type { Kysely, Migration } from 'kysely';
import type { DialectHelpers } from '../dialects/dialect.js';

/** The fold of foldForSearch as it is when this ships, written out so the migration keeps doing what it did. */
const fold = (...fields: Array<string | null | undefined>) =>
  fields
    .filter((field) => field)
    .join('\n')
    .normalize('NFC')
    .toLowerCase();

const BATCH = 500;
const BEFORE_EVERY_UUID = '00000000-0000-0000-0000-000000000000';

/**
 * Posts and pages get a second folded column, `search_head` (the title, and a post's excerpt), with an
 * index of its own; `search_text` keeps only the folded body text. A title edit re-indexed the whole
 * body before: 1.2 of a title PATCH's 3.4 ms of CPU on SQLite went to FTS5 deleting and re-adding the
 * trigrams of 25 kB of text that had not changed.
 *
 * Each body index is dropped while its column is rewritten and built again from the rows afterwards;
 * re-indexed row by row, through the triggers, the rewrite took over a millisecond a post.
 */
export function searchHeads(helpers: DialectHelpers): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const table of ['posts', 'pages'] as const) {
        await helpers.dropSearchIndex(db, table, 'search_text');
        await db.schema
          .alterTable(table)
          .addColumn('search_head', 'text', (c) => c.notNull().defaultTo(''))
          .execute();
        const head = table === 'posts' ? ['title', 'excerpt'] : ['title'];
        for (let after = BEFORE_EVERY_UUID; ;) {
          const rows = (await db
            .selectFrom(table)
            .select(['id', 'body_text', ...head])
            .where('id', '>', after)
            .orderBy('id')
            .limit(BATCH)
            .execute()) as Array<{ id: string; title: string; excerpt?: string; body_text: string }>;
          for (const row of rows) {
            await db
              .updateTable(table)
              .set({ search_head: fold(row.title, row.excerpt), search_text: fold(row.body_text) })
              .where('id', '=', row.id)
              .execute();
          }
          if (rows.length < BATCH) break;
          after = rows[rows.length - 1]!.id;
        }
        await helpers.createSearchIndex(db, table, 'search_text');
        await helpers.createSearchIndex(db, table, 'search_head');
      }
    },
  };
}
