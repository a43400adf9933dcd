import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { SearchableTable } from '../../src/db/dialects/dialect.js';
import { searchText } from '../../src/shared/search.js';
import { searchWords, wordQuery } from '../../src/shared/search-words.js';
import { describeEachDialect } from '../helpers/database.js';
import { databaseAtMigration } from '../helpers/migration.js';

describeEachDialect('migrations 0008 and 0018: a search head beside the search body, then their words', (dialect) => {
  const { now, workspaceId, raw: db, handle } = databaseAtMigration(dialect, '0007_posts_live_index');

  async function insertPost(title: string, excerpt: string, bodyText: string): Promise<string> {
    const id = crypto.randomUUID();
    await db()
      .insertInto('posts')
      .values({
        id,
        workspace_id: workspaceId,
        slug: id,
        title,
        excerpt,
        body_json: '[]',
        body_text: bodyText,
        search_text: searchText(title, excerpt, bodyText), // before 0008: the three fields in one fold
        toc_items: '[]',
        word_count: 0,
        reading_time_min: 1,
        status: 'draft',
        is_how_to: false,
        view_count: 0,
        schema_type: 'BlogPosting',
        structured_blocks: '[]',
        seo_score: 0,
        readability_score: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return id;
  }

  async function found(table: SearchableTable, q: string): Promise<string[]> {
    const rows = await handle()
      .db.selectFrom(table)
      .select('id')
      .where('deleted_at', 'is', null)
      .where(handle().dialect.wordsMatch(table, { workspaceId }, wordQuery(q)))
      .orderBy('id')
      .execute();
    return rows.map((row) => row.id);
  }

  it('moves each post and page to the words of its head and of its body, and the word index serves q', async () => {
    // More than one batch of the migration's rewrite (500 rows).
    const posts = [await insertPost('Ünïcode Tïtle', 'The Excerpt', 'Body text about Sourdough.')];
    for (let i = 0; i < 520; i++) posts.push(await insertPost(`Filler ${i}`, '', `Plain words number ${i}.`));
    const pageId = crypto.randomUUID();
    await db()
      .insertInto('pages')
      .values({
        id: pageId,
        workspace_id: workspaceId,
        slug: 'about',
        title: 'About Us',
        body_json: '[]',
        body_text: 'Who we are.',
        search_text: searchText('About Us', 'Who we are.'),
        page_type: 'standard',
        status: 'draft',
        created_at: now,
        updated_at: now,
      })
      .execute();

    await migrateToLatest(handle());

    const [first] = await handle()
      .db.selectFrom('posts')
      .select(['search_head', 'search_text'])
      .where('id', '=', posts[0]!)
      .execute();
    expect(first).toEqual({ search_head: 'ünïcode tïtle the excerpt', search_text: 'body text about sourdough' });
    const last = await handle()
      .db.selectFrom('posts')
      .select(['search_head', 'search_text'])
      .where('id', '=', posts[520]!)
      .executeTakeFirstOrThrow();
    expect(last).toEqual({ search_head: 'filler 519', search_text: 'plain words number 519' });
    // Every row, whichever batch of the rewrite it fell in.
    const rows = await handle()
      .db.selectFrom('posts')
      .select(['title', 'excerpt', 'body_text', 'search_head', 'search_text'])
      .execute();
    const unwritten = rows.filter(
      (row) =>
        row.search_head !== searchWords(row.title, row.excerpt) || row.search_text !== searchWords(row.body_text),
    );
    expect(unwritten).toEqual([]);
    const page = await handle()
      .db.selectFrom('pages')
      .select(['search_head', 'search_text'])
      .where('id', '=', pageId)
      .executeTakeFirstOrThrow();
    expect(page).toEqual({ search_head: 'about us', search_text: 'who we are' });

    expect(await found('posts', 'ünïcode')).toEqual([posts[0]]);
    expect(await found('posts', 'the excerpt')).toEqual([posts[0]]);
    expect(await found('posts', 'sourdough')).toEqual([posts[0]]);
    expect(await found('posts', 'number 519')).toEqual([posts[520]]);
    expect((await found('posts', 'filler')).length).toBe(520);
    // Words of the head and of the body are found together.
    expect(await found('posts', 'excerpt body')).toEqual([posts[0]]);
    expect(await found('pages', 'about')).toEqual([pageId]);
    expect(await found('pages', 'who we')).toEqual([pageId]);
  });
});
