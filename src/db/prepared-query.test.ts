import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteDialect } from './dialects/sqlite/index.js';
import { preparedQuery } from './prepared-query.js';

interface Notes {
  notes: { id: string; body: string | null; copy: string | null; hits: number };
}

describe('preparedQuery', () => {
  let db: Kysely<Notes>;

  beforeAll(async () => {
    db = new Kysely<Notes>({ dialect: sqliteDialect(':memory:') });
    await sql`create table notes (id text primary key, body text, copy text, hits integer not null)`.execute(db);
  });
  afterAll(() => db.destroy());

  let builds = 0;
  const upsert = preparedQuery((db: Kysely<Notes>, id: string, body: string | null) => {
    builds += 1;
    return db
      .insertInto('notes')
      .values({ id, body, copy: body, hits: 1 })
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({ hits: eb('notes.hits', '+', 1), body: eb.ref('excluded.body') })),
      )
      .returningAll();
  });

  it("runs with each call's arguments, an argument used twice and the query's own constants in place", async () => {
    expect((await upsert(db, 'a', 'first')).rows).toEqual([{ id: 'a', body: 'first', copy: 'first', hits: 1 }]);
    expect((await upsert(db, 'b', null)).rows).toEqual([{ id: 'b', body: null, copy: null, hits: 1 }]);
    expect((await upsert(db, 'a', 'second')).rows).toEqual([{ id: 'a', body: 'second', copy: 'first', hits: 2 }]);
  });

  it('builds the query once, and a transaction on the same database reuses it', async () => {
    const before = builds;
    await db.transaction().execute(async (trx) => {
      await upsert(trx, 'c', 'in a transaction');
      await upsert(trx, 'c', 'again');
    });
    await upsert(db, 'c', 'outside');
    expect(builds - before).toBe(0);
    expect((await db.selectFrom('notes').select('hits').where('id', '=', 'c').executeTakeFirstOrThrow()).hits).toBe(3);
  });

  it('refuses an argument written into the SQL text', () => {
    const inlined = preparedQuery((db: Kysely<Notes>, id: string) =>
      db
        .selectFrom('notes')
        .selectAll()
        .where(sql.raw<boolean>(`id = '${id}'`)),
    );
    expect(() => inlined(db, 'a')).toThrow(/written into the SQL text/);
  });

  it('refuses an argument that does not reach the parameters', () => {
    const ignored = preparedQuery((db: Kysely<Notes>, _id: string) => db.selectFrom('notes').selectAll());
    expect(() => ignored(db, 'a')).toThrow(/argument 0 is not a parameter/);
  });
});
