import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { lintAs as lintAsFile } from './lint-as.js';
import type { Database } from '../../src/db/schema.js';
import { tagsRepository } from '../../src/modules/tags/tags.repository.js';

const lintAs = (file: string, code: string) => lintAsFile(file, code, 'content-writes/');

const HEAD = `
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { ContentTransaction } from '../../writes/content-transaction.js';
import type { ContentWriteScope } from '../../writes/content-write.js';
import { contentWrite } from '../../writes/content-write.js';
import { insertRows } from '../../db/insert-rows.js';
declare const db: Kysely<never>;
`;

const OUTSIDE = {
  update: `export const f = (db: Kysely<never>) => db.updateTable('posts').set({}).execute();`,
  aliased: `export const f = (db: Kysely<never>) => db.deleteFrom('tags as t').execute();`,
  join: `export const f = (db: Kysely<never>) => db.insertInto('post_tags').values({}).execute();`,
  cast: `export const f = (db: Kysely<never>) => db.deleteFrom('media' as 'media').execute();`,
  raw: `export const f = (db: Kysely<never>) => sql\`update redirects set hits = 0\`.execute(db);`,
  bulk: `export const f = () => insertRows(db, 'sqlite', 'authors', []);`,
};

const INSIDE = {
  parameter: `export const f = (db: ContentTransaction) => db.updateTable('posts').set({}).execute();`,
  scope: `export const f = (scope: ContentWriteScope) => scope.trx.deleteFrom('categories').execute();`,
  raw: `export const f = (trx: ContentTransaction) => sql\`delete from related_posts\`.execute(trx);`,
  work: `export const f = (database: never) =>
    contentWrite(database, {} as never, async ({ trx }) => { await insertRows(trx, 'sqlite', 'pages', []); });`,
  other: `export const f = (db: Kysely<never>) => db.updateTable('webhook_endpoints').set({}).execute();`,
};

describe('the lint rule that keeps content tables inside contentWrite', () => {
  it('refuses a write of a content table on an executor that is not a ContentTransaction', async () => {
    for (const [name, code] of Object.entries(OUTSIDE)) {
      const messages = await lintAs('src/modules/tags/tags.service.ts', HEAD + code);
      expect({ name, messages }).toEqual({
        name,
        messages: [expect.stringMatching(/^Content tables \(\w+\) are written inside contentWrite only/)],
      });
    }
  });

  it('lets a repository write on a ContentTransaction, and the work handed to contentWrite write in bulk', async () => {
    for (const [name, code] of Object.entries(INSIDE))
      expect({ name, messages: await lintAs('src/modules/tags/tags.repository.ts', HEAD + code) }).toEqual({
        name,
        messages: [],
      });
  });

  it('holds a table named at run time to the rule, unless its file is named as one whose dynamic tables are not content', async () => {
    const dynamic = `export const f = (db: Kysely<never>, table: 'tags') => db.deleteFrom(table).execute();`;
    expect(await lintAs('src/modules/content/taxonomy.ts', HEAD + dynamic)).toEqual([
      expect.stringMatching(/^A write of a table named at run time may write a content table/),
    ]);
    const branded = `export const f = (db: ContentTransaction, table: 'tags') => db.deleteFrom(table).execute();`;
    expect(await lintAs('src/modules/content/taxonomy.ts', HEAD + branded)).toEqual([]);
    expect(await lintAs('src/writes/revisions.repository.ts', HEAD + dynamic)).toEqual([]);
  });

  it('names its exceptions: migrations and migrate-to write content tables without contentWrite', async () => {
    expect(await lintAs('src/db/migrations/0099_backfill.ts', HEAD + OUTSIDE.update)).toEqual([]);
    expect(await lintAs('src/operate/move/migrate-to.ts', HEAD + OUTSIDE.bulk)).toEqual([]);
    expect(await lintAs('src/operate/workspace/import.ts', HEAD + OUTSIDE.bulk)).toHaveLength(1);
  });

  it('lets contentWrite alone make a ContentTransaction', async () => {
    const cast = `export const f = (db: Kysely<never>) => db as unknown as ContentTransaction;`;
    expect(await lintAs('src/modules/tags/tags.service.ts', HEAD + cast)).toEqual([
      expect.stringMatching(/^Only contentWrite .* makes a ContentTransaction/),
    ]);
    expect(await lintAs('src/writes/content-write.ts', HEAD + cast)).toEqual([]);
  });

  it('has the compiler refuse a repository write given a plain transaction (checked by npm run lint)', () => {
    // Never called: the directive below is the assertion. Were the repositories' writes to take a plain Kysely
    // again, the directive would be unused, and tsc (npm run lint) fails on an unused one.
    const plain = (db: Kysely<Database>) =>
      // @ts-expect-error A content write needs the ContentTransaction only contentWrite opens.
      tagsRepository.delete(db, 'workspace', 'tag');
    expect(typeof plain).toBe('function');
  });
});
