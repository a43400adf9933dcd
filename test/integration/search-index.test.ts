import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { wordQuery } from '../../src/shared/search-words.js';

describeEachDialect('q through the search index', (dialect) => {
  let ctx: TestContext;
  let key: string;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    ({ key } = await ctx.ownerKey());
  });
  afterAll(() => ctx?.close());

  const create = (payload: object) =>
    ctx.app
      .inject({ method: 'POST', url: `${EXTERNAL}/posts`, headers: { 'x-api-key': key }, payload })
      .then((r) => r.json());
  const search = async (q: string) => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: `${EXTERNAL}/posts?pageSize=100&q=${encodeURIComponent(q)}`,
      headers: { 'x-api-key': key },
    });
    expect(response.statusCode, q).toBe(200);
    return response
      .json()
      .data.map((p: { title: string }) => p.title)
      .sort();
  };

  it('finds every word of q, the last as a beginning, in any order and case, and takes query syntax literally', async () => {
    const quotes = 'Quotes "inside" here';
    const operators = 'Boolean AND operators OR NEAR(x) and stars*';
    await create({ title: quotes });
    await create({ title: operators });
    await create({ title: 'Ab' });
    await create({ title: 'Unrelated' });
    expect(await search('"inside"')).toEqual([quotes]);
    expect(await search('HERE insi')).toEqual([quotes]);
    expect(await search('AND OPERATORS')).toEqual([operators]);
    expect(await search('operators boolean')).toEqual([operators]);
    expect(await search('near(x)')).toEqual([operators]);
    expect(await search('stars*')).toEqual([operators]);
    expect(await search('NOT stars')).toEqual([]);
    expect(await search('or OR or')).toEqual([operators]);
    // Inside a word is not a word's beginning.
    expect(await search('side')).toEqual([]);
    expect(await search('rs')).toEqual([]);
    expect(await search('ab')).toEqual(['Ab']);
    expect(await search('b')).toEqual([operators]);
    // The last word is whole when q ends after it.
    expect(await search('inside ')).toEqual([quotes]);
    expect(await search('insid ')).toEqual([]);
    // No word at all finds nothing.
    expect(await search('"*"')).toEqual([]);
  });

  it('follows every write: a new title is found, the old one is not, a deleted post is gone', async () => {
    const post = await create({ title: 'Marmalade recipes' });
    expect(await search('marmalade')).toEqual(['Marmalade recipes']);
    await ctx.app.inject({
      method: 'PATCH',
      url: `${EXTERNAL}/posts/${post.id}`,
      headers: { 'x-api-key': key },
      payload: { title: 'Jam recipes' },
    });
    expect(await search('marmalade')).toEqual([]);
    expect(await search('jam rec')).toEqual(['Jam recipes']);
    await ctx.app.inject({
      method: 'PATCH',
      url: `${EXTERNAL}/posts/${post.id}`,
      headers: { 'x-api-key': key },
      payload: { bodyJson: [{ type: 'paragraph', text: 'Seville oranges' }] },
    });
    expect(await search('seville orang')).toEqual(['Jam recipes']);
    await ctx.app.inject({ method: 'DELETE', url: `${EXTERNAL}/posts/${post.id}`, headers: { 'x-api-key': key } });
    expect(await search('seville')).toEqual([]);
  });

  it('searches title, excerpt and body text each on its own, whichever a write changed', async () => {
    const post = await create({
      title: 'Quince harvest',
      excerpt: 'Notes from the orchard',
      bodyJson: [{ type: 'paragraph', text: 'Pectin sets the jelly.' }],
    });
    expect(await search('quince')).toEqual(['Quince harvest']);
    expect(await search('the orchard')).toEqual(['Quince harvest']);
    expect(await search('pectin sets')).toEqual(['Quince harvest']);
    // Words of different fields are found together, the last as a beginning in either.
    expect(await search('quince pectin')).toEqual(['Quince harvest']);
    expect(await search('pectin orchard quin')).toEqual(['Quince harvest']);
    expect(await search('quince jel')).toEqual(['Quince harvest']);
    expect(await search('quince medlar')).toEqual([]);
    const rename = await ctx.app.inject({
      method: 'PATCH',
      url: `${EXTERNAL}/posts/${post.id}`,
      headers: { 'x-api-key': key },
      payload: { title: 'Medlar harvest' },
    });
    expect(rename.statusCode).toBe(200);
    expect(await search('quince')).toEqual([]);
    expect(await search('medlar')).toEqual(['Medlar harvest']);
    expect(await search('the orchard')).toEqual(['Medlar harvest']);
    expect(await search('pectin sets')).toEqual(['Medlar harvest']);
    const excerpt = await ctx.app.inject({
      method: 'PATCH',
      url: `${EXTERNAL}/posts/${post.id}`,
      headers: { 'x-api-key': key },
      payload: { excerpt: 'From the hedgerow' },
    });
    expect(excerpt.statusCode).toBe(200);
    expect(await search('orchard')).toEqual([]);
    expect(await search('hedgerow')).toEqual(['Medlar harvest']);
    expect(await search('pectin')).toEqual(['Medlar harvest']);
  });

  it('a page is found by its title and by its body, and after either changes', async () => {
    const pages = (q: string) =>
      ctx.app
        .inject({ method: 'GET', url: `${EXTERNAL}/pages?q=${encodeURIComponent(q)}`, headers: { 'x-api-key': key } })
        .then((r) => (r.json().data as Array<{ title: string }>).map((p) => p.title));
    const created = await ctx.app.inject({
      method: 'POST',
      url: `${EXTERNAL}/pages`,
      headers: { 'x-api-key': key },
      payload: { title: 'Opening hours', bodyJson: [{ type: 'paragraph', text: 'Closed on Mondays.' }] },
    });
    expect(created.statusCode).toBe(201);
    expect(await pages('opening')).toEqual(['Opening hours']);
    expect(await pages('mondays')).toEqual(['Opening hours']);
    const id = created.json().id as string;
    for (const payload of [
      { title: 'Visiting hours' },
      { bodyJson: [{ type: 'paragraph', text: 'Closed on Tuesdays.' }] },
    ]) {
      const patched = await ctx.app.inject({
        method: 'PATCH',
        url: `${EXTERNAL}/pages/${id}`,
        headers: { 'x-api-key': key },
        payload,
      });
      expect(patched.statusCode, patched.body).toBe(200);
    }
    expect(await pages('opening')).toEqual([]);
    expect(await pages('mondays')).toEqual([]);
    expect(await pages('visiting')).toEqual(['Visiting hours']);
    expect(await pages('tuesdays')).toEqual(['Visiting hours']);
    // Every word of q in the title or the body, each in either, the last as a beginning in either.
    expect(await pages('tuesdays visiting')).toEqual(['Visiting hours']);
    expect(await pages('hours closed tues')).toEqual(['Visiting hours']);
    expect(await pages('closed visit')).toEqual(['Visiting hours']);
    expect(await pages('visiting mondays')).toEqual([]);
    expect(await pages('closed open')).toEqual([]);
  });

  it('a body of as many distinct words as are stored is written and searched alike on both dialects', async () => {
    // Three-letter words of 37 Devanagari consonants (three bytes each in UTF-8): 50,653 distinct words, past
    // what a field stores (200,000 characters of words), and near the largest tsvector they can make.
    const letters = Array.from({ length: 37 }, (_, n) => String.fromCodePoint(0x915 + n));
    const words = letters.flatMap((a) => letters.flatMap((b) => letters.map((c) => `${a}${b}${c}`)));
    const paragraphs: Array<{ type: 'paragraph'; text: string }> = [];
    for (let start = 0; start < words.length; start += 2400)
      paragraphs.push({ type: 'paragraph', text: words.slice(start, start + 2400).join(' ') });
    const created = await ctx.app.inject({
      method: 'POST',
      url: `${EXTERNAL}/posts`,
      headers: { 'x-api-key': key },
      payload: { title: 'Many words', bodyJson: paragraphs },
    });
    expect(created.statusCode, created.body.slice(0, 300)).toBe(201);
    expect(await search(words[0]!)).toEqual(['Many words']);
    expect(await search(words[49_000]!)).toEqual(['Many words']);
    // Past the bound: not stored, so not found.
    expect(await search(words.at(-1)!)).toEqual([]);
  });

  it('the word index serves the search predicate (query plan)', async () => {
    const db = ctx.runtime.database.db;
    const { workspace } = await ctx.ownerKey();
    const query = db
      .selectFrom('posts')
      .select('id')
      .where('deleted_at', 'is', null)
      .where(ctx.runtime.database.dialect.wordsMatch('posts', { workspaceId: workspace.id }, wordQuery('sourdough')))
      .compile();
    if (dialect === 'sqlite') {
      const plan = await db.executeQuery<{ detail: string }>({
        ...query,
        sql: `explain query plan ${query.sql}`,
      } as never);
      const details = plan.rows.map((r) => r.detail).join('\n');
      expect(details).toMatch(/posts_words VIRTUAL TABLE INDEX/);
      expect(details).not.toMatch(/SCAN posts\b/);
    } else {
      // On tables this small a scan, or a walk of posts probing each row's words, is cheaper; with those priced
      // out, the planner shows whether the word table's index can serve the predicate at all.
      const plan = await db.transaction().execute(async (trx) => {
        for (const setting of ['enable_seqscan', 'enable_indexscan', 'enable_nestloop'])
          await sql`select set_config(${setting}, 'off', true)`.execute(trx);
        return trx.executeQuery<{ 'QUERY PLAN': string }>({ ...query, sql: `explain ${query.sql}` } as never);
      });
      const details = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(details).toMatch(/Bitmap Index Scan on posts_words_gin/);
    }
  });
});
