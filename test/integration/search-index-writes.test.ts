import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';

// SQLite only: what an FTS5 index stores is a table that can be read; a pg_trgm index has no such view.
describe('which search index a write touches [sqlite]', () => {
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
  /** The segments an FTS5 index holds: a write that reaches the index adds one. */
  const stored = async (index: string) =>
    (
      await sql<{
        n: number;
        bytes: number;
      }>`select count(*) as n, sum(length(block)) as bytes from ${sql.table(`${index}_data`)}`.execute(
        ctx.runtime.database.db,
      )
    ).rows[0];

  it.each([
    [
      'posts',
      { title: 'Damson gin', excerpt: 'Autumn', bodyJson: [{ type: 'paragraph', text: 'Prick the fruit.' }] },
      [{ title: 'Sloe gin' }, { excerpt: 'Winter' }],
    ],
    ['pages', { title: 'Contact', bodyJson: [{ type: 'paragraph', text: 'Write to us.' }] }, [{ title: 'Contact us' }]],
  ] as const)(
    '%s: a write of the head leaves the body index alone, and a write of the body reaches it',
    async (table, created, headWrites) => {
      const { id } = await send('POST', `/${table}`, created);
      for (const write of headWrites) {
        const body = await stored(`${table}_search`);
        const head = await stored(`${table}_head_search`);
        await send('PATCH', `/${table}/${id}`, write);
        expect(await stored(`${table}_search`), JSON.stringify(write)).toEqual(body);
        expect(await stored(`${table}_head_search`), JSON.stringify(write)).not.toEqual(head);
      }
      // The same body again changes no text: neither index is written.
      const before = { body: await stored(`${table}_search`), head: await stored(`${table}_head_search`) };
      await send('PATCH', `/${table}/${id}`, { bodyJson: created.bodyJson });
      expect({ body: await stored(`${table}_search`), head: await stored(`${table}_head_search`) }).toEqual(before);
      await send('PATCH', `/${table}/${id}`, { bodyJson: [{ type: 'paragraph', text: 'Something else entirely.' }] });
      expect(await stored(`${table}_search`)).not.toEqual(before.body);
    },
  );
});
