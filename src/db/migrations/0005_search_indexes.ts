import type { Kysely, Migration } from 'kysely';
import type { DialectHelpers } from '../dialects/dialect.js';

/** Search indexes over posts' and pages' `search_text`, so `q` needs no scan (issue 8). */
export function searchIndexes(helpers: DialectHelpers): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await helpers.createSearchIndex(db, 'posts');
      await helpers.createSearchIndex(db, 'pages');
    },
  };
}
