/* eslint-disable @typescript-eslint/no-explicit-any -- a migration is written against the schema as it was then */
import type { Kysely, Migration } from 'kysely';
import { searchWords } from '../../shared/search-words.js';
import type { DialectHelpers } from '../dialects/dialect.js';

const BATCH = 500;
const BEFORE_EVERY_UUID = '00000000-0000-0000-0000-000000000000';

/**
 * `q` on posts and pages searches words (docs/decisions.md, "q finds words"): the search columns hold each
 * distinct word once instead of the folded text, and one word index a table replaces the two trigram indexes
 * of 0005 and 0008, which found substrings but had to read every candidate's text to count a common one.
 *
 * The words are those of search-words.ts as the application splits them, not a copy frozen here: what this
 * migration must leave behind is the columns as the writes of the same build fill them.
 */
export function searchWordColumns(helpers: DialectHelpers): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const table of ['posts', 'pages'] as const) {
        await helpers.dropSearchIndex(db, table, 'search_text');
        await helpers.dropSearchIndex(db, table, 'search_head');
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
              .set({ search_head: searchWords(row.title, row.excerpt), search_text: searchWords(row.body_text) })
              .where('id', '=', row.id)
              .execute();
          }
          if (rows.length < BATCH) break;
          after = rows[rows.length - 1]!.id;
        }
        await helpers.createWordIndex(db, table);
      }
    },
  };
}
