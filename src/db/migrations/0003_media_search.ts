/* eslint-disable @typescript-eslint/no-explicit-any -- a migration is written against the schema as it was then */
import type { Kysely, Migration } from 'kysely';

/*
 * `q` on media searches alt, caption and filename case-insensitively for every script; SQLite's
 * lower() knows only ASCII, so, as for posts, the application stores a folded copy and `q` is a
 * literal substring search over it. The fold is written out here so this migration keeps doing what
 * it did when it shipped.
 */
const fold = (...fields: Array<string | null>) =>
  fields
    .filter((field) => field)
    .join('\n')
    .normalize('NFC')
    .toLowerCase();

export function mediaSearch(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('media')
        .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      const rows = (await db.selectFrom('media').select(['id', 'alt', 'caption', 'filename']).execute()) as Array<{
        id: string;
        alt: string | null;
        caption: string | null;
        filename: string;
      }>;
      for (const row of rows) {
        await db
          .updateTable('media')
          .set({ search_text: fold(row.alt, row.caption, row.filename) })
          .where('id', '=', row.id)
          .execute();
      }
    },
  };
}
