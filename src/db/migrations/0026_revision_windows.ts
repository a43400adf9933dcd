/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are written against the schema as it was then */
import type { Kysely, Migration } from 'kysely';
import type { DialectHelpers } from '../dialects/dialect.js';

/**
 * Revision windows (src/writes/revision-windows.ts): `opened_at` is when the run of a draft's saves a revision
 * holds began, and null for a revision no later save merges into. Null is the value every row had before, so
 * the revisions kept until now, and those an archive brings, each stay a step of their own.
 */
export function revisionWindows({ types: t }: DialectHelpers): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const table of ['post_revisions', 'page_revisions'])
        await db.schema.alterTable(table).addColumn('opened_at', t.timestamp).execute();
    },
  };
}
