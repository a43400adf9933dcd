import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';

// SQLite only: what an FTS5 index stores is a table that can be read; a GIN index has no such view.
describe('which writes reach the word index [sqlite]', () => {
  let ctx: TestContext;
  let key: string;
  beforeAll(async () => {
    ctx = await buildTestApp('sqlite');
    ({ key } = await ctx.ownerKey());
  });
  afterAll(() => ctx?.close());

  const send = async (method: string, url: string, payload?: object) => {
    const response = await ctx.app.inject({ method, url: `${EXTERNAL}${url}`, headers: { 'x-api-key': key }, payload });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json() as { id: string };
  };
  /** The segments the FTS5 index holds: a write that reaches the index adds one. */
  const stored = async (table: string) =>
    (
      await sql<{
        n: number;
        bytes: number;
      }>`select count(*) as n, sum(length(block)) as bytes from ${sql.table(`${table}_words_data`)}`.execute(
        ctx.runtime.database.db,
      )
    ).rows[0];

  it.each([
    ['posts', { title: 'Damson gin', excerpt: 'Autumn', bodyJson: [{ type: 'paragraph', text: 'Prick the fruit.' }] }],
    ['pages', { title: 'Contact', bodyJson: [{ type: 'paragraph', text: 'Write to us.' }] }],
  ] as const)(
    '%s: a write that changes no words leaves the index alone; a new title or body reaches it',
    async (table, created) => {
      const { id } = await send('POST', `/${table}`, created);
      const unchanged = await stored(table);
      // The same body again, and a field that is not searched: no word moved.
      await send('PATCH', `/${table}/${id}`, { bodyJson: created.bodyJson });
      await send('PATCH', `/${table}/${id}`, { seo: { title: 'Not searched' } });
      expect(await stored(table)).toEqual(unchanged);
      await send('PATCH', `/${table}/${id}`, { title: `${created.title} again` });
      const retitled = await stored(table);
      expect(retitled).not.toEqual(unchanged);
      await send('PATCH', `/${table}/${id}`, { bodyJson: [{ type: 'paragraph', text: 'Something else entirely.' }] });
      expect(await stored(table)).not.toEqual(retitled);
    },
  );
});
