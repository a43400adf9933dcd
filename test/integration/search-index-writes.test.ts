import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';

describeEachDialect('which writes reach the word index', (dialect) => {
  let ctx: TestContext;
  let key: string;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    ({ key } = await ctx.ownerKey());
  });
  afterAll(() => ctx?.close());

  const send = async (method: string, url: string, payload?: object) => {
    const response = await ctx.app.inject({ method, url: `${EXTERNAL}${url}`, headers: { 'x-api-key': key }, payload });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json() as { id: string };
  };
  /**
   * What shows a write reached the index: on SQLite the segments the FTS5 index holds (each write that reaches it
   * adds one), on PostgreSQL the transaction that last wrote the row's words (`xmin`).
   */
  const stored = async (table: string, id: string) =>
    dialect === 'sqlite'
      ? (
          await sql<{ n: number; bytes: number }>`select count(*) as n, sum(length(block)) as bytes
            from ${sql.table(`${table}_words_data`)}`.execute(ctx.runtime.database.db)
        ).rows[0]
      : (
          await sql<{ writer: string }>`select xmin::text as writer from ${sql.table(`${table}_words`)}
            where row_id = ${id}`.execute(ctx.runtime.database.db)
        ).rows[0];

  it.each([
    ['posts', { title: 'Damson gin', excerpt: 'Autumn', bodyJson: [{ type: 'paragraph', text: 'Prick the fruit.' }] }],
    ['pages', { title: 'Contact', bodyJson: [{ type: 'paragraph', text: 'Write to us.' }] }],
  ] as const)(
    '%s: a write that changes no words leaves the index alone; a new title or body reaches it',
    async (table, created) => {
      const { id } = await send('POST', `/${table}`, created);
      const unchanged = await stored(table, id);
      // The same body again, and a field that is not searched: no word moved.
      await send('PATCH', `/${table}/${id}`, { bodyJson: created.bodyJson });
      await send('PATCH', `/${table}/${id}`, { seo: { title: 'Not searched' } });
      expect(await stored(table, id)).toEqual(unchanged);
      await send('PATCH', `/${table}/${id}`, { title: `${created.title} again` });
      const retitled = await stored(table, id);
      expect(retitled).not.toEqual(unchanged);
      await send('PATCH', `/${table}/${id}`, { bodyJson: [{ type: 'paragraph', text: 'Something else entirely.' }] });
      expect(await stored(table, id)).not.toEqual(retitled);
    },
  );
});
