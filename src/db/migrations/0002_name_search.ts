/* eslint-disable @typescript-eslint/no-explicit-any -- a migration is written against the schema as it was then */
import type { Kysely, Migration } from 'kysely';

const TABLES = [
  { table: 'authors', name: 'display_name' },
  { table: 'categories', name: 'name' },
  { table: 'tags', name: 'name' },
] as const;

/*
 * `q` on authors, categories and tags must be case-insensitive for every script, and SQLite's lower()
 * knows only ASCII: so, as for posts, the application stores a folded copy (name and slug) and `q` is a
 * literal substring search over it. The fold is written out here rather than imported, so this
 * migration keeps doing what it did when it shipped.
 */
const fold = (...fields: string[]) => fields.join('\n').normalize('NFC').toLowerCase();

export function nameSearch(): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const { table, name } of TABLES) {
        await db.schema
          .alterTable(table)
          .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
          .execute();
        const rows = (await db
          .selectFrom(table)
          .select(['id', 'slug', `${name} as name`])
          .execute()) as Array<{ id: string; slug: string; name: string }>;
        for (const row of rows) {
          await db
            .updateTable(table)
            .set({ search_text: fold(row.name, row.slug) })
            .where('id', '=', row.id)
            .execute();
        }
      }
    },
  };
}
