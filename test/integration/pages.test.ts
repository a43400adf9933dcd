import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { insertMedia } from '../helpers/content.js';
import { describeEachDialect } from '../helpers/database.js';

describeEachDialect('pages', (dialect) => {
  let ctx: TestContext;
  let key: string;
  let workspaceId: string;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    const owner = await ctx.ownerKey();
    key = owner.key;
    workspaceId = owner.workspace.id;
  });
  afterAll(() => ctx?.close());

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, apiKey = key) =>
    ctx.app.inject({
      method,
      url: `${EXTERNAL}${url}`,
      headers: { 'x-api-key': apiKey },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  describe('create and read', () => {
    it('creates a draft page with derived slug, bodyText and jsonLd, and none of the post-only fields', async () => {
      const response = await call('POST', '/pages', {
        title: 'About us',
        pageType: 'AboutPage',
        bodyJson: [
          { type: 'heading', level: 2, text: 'Who we are' },
          { type: 'paragraph', text: 'A small team.' },
        ],
      });
      expect(response.statusCode).toBe(201);
      const page = response.json();
      expect(page).toMatchObject({
        slug: 'about-us',
        title: 'About us',
        status: 'draft',
        pageType: 'AboutPage',
        bodyText: 'Who we are\n\nA small team.',
        publishedAt: null,
        deletedAt: null,
        workspaceId,
      });
      expect(page.bodyJson[0]).toEqual({ type: 'heading', level: 2, text: 'Who we are', id: 'who-we-are' });
      expect(page.jsonLd['@context']).toBe('https://schema.org');
      expect(page.jsonLd['@graph'][0]['@type']).toBe('AboutPage');
      for (const postOnly of [
        'author',
        'authorId',
        'category',
        'featuredMedia',
        'tags',
        'relatedPosts',
        'tocItems',
        'readingTimeMin',
        'excerpt',
        'seoScore',
      ]) {
        expect(page).not.toHaveProperty(postOnly);
      }
      const bySlug = await call('GET', '/pages/about-us');
      const byId = await call('GET', `/pages/${page.id}`);
      expect(bySlug.json()).toEqual(byId.json());
    });

    it('derives -2, -3 slugs, refuses a taken explicit slug with 409, and a post status with 400', async () => {
      await call('POST', '/pages', { title: 'Contact' });
      expect((await call('POST', '/pages', { title: 'Contact' })).json().slug).toBe('contact-2');
      expect((await call('POST', '/pages', { title: 'Contact' })).json().slug).toBe('contact-3');
      const taken = await call('POST', '/pages', { title: 'Other', slug: 'contact' });
      expect(taken.statusCode).toBe(409);
      expect(taken.json().code).toBe('CONFLICT');
      for (const status of ['archived', 'scheduled']) {
        const refused = await call('POST', '/pages', { title: 'x', status });
        expect(refused.statusCode).toBe(400);
        expect(refused.json().details.issues[0].path).toBe('/status');
      }
      const badType = await call('POST', '/pages', { title: 'x', pageType: 'BlogPosting' });
      expect(badType.statusCode).toBe(400);
      expect(badType.json().details.issues[0].path).toBe('/pageType');
    });

    it('refuses unknown and read-only fields by name', async () => {
      for (const field of ['bodyText', 'jsonLd', 'id', 'tocItems', 'author']) {
        const response = await call('POST', '/pages', { title: 'x', [field]: 'y' });
        expect(response.statusCode, field).toBe(400);
        expect(response.json().details.issues[0].path).toBe(`/${field}`);
      }
    });

    it('enriches image blocks with the media url, and null once the media row is gone', async () => {
      const mediaId = await insertMedia(ctx.runtime.database.db, workspaceId, { filename: 'team.png' });
      const created = (
        await call('POST', '/pages', { title: 'Team', bodyJson: [{ type: 'image', mediaId, alt: 'The team' }] })
      ).json();
      expect(created.bodyJson[0].url).toBe(`${ctx.config.publicUrl}/media/${workspaceId}/${mediaId}/team.png`);
      await ctx.runtime.database.db.deleteFrom('media').where('id', '=', mediaId).execute();
      const read = (await call('GET', `/pages/${created.id}`)).json();
      expect(read.bodyJson[0]).toEqual({ type: 'image', mediaId, alt: 'The team', url: null });
      // The held reference survives a round trip; a new unknown one does not.
      const roundTrip = await call('PATCH', `/pages/${created.id}`, { bodyJson: read.bodyJson });
      expect(roundTrip.statusCode).toBe(200);
      const unknown = await call('PATCH', `/pages/${created.id}`, {
        bodyJson: [{ type: 'image', mediaId: '00000000-0000-4000-8000-000000000009' }],
      });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().details.issues[0].path).toBe('/bodyJson/0/mediaId');
    });

    it('refuses media of another workspace', async () => {
      const other = await ctx.ownerKey();
      const foreign = await insertMedia(ctx.runtime.database.db, other.workspace.id);
      const response = await call('POST', '/pages', { title: 'x', bodyJson: [{ type: 'image', mediaId: foreign }] });
      expect(response.statusCode).toBe(400);
      expect(response.json().details.issues[0].path).toBe('/bodyJson/0/mediaId');
    });
  });

  describe('update and delete', () => {
    it('patches partially, publishes with publishedAt, moves back to draft, and re-derives bodyText', async () => {
      const page = (
        await call('POST', '/pages', { title: 'Terms', bodyJson: [{ type: 'paragraph', text: 'Old terms.' }] })
      ).json();
      const published = (await call('PATCH', `/pages/${page.id}`, { status: 'published' })).json();
      expect(published.status).toBe('published');
      expect(published.publishedAt).not.toBeNull();
      expect(published.title).toBe('Terms');
      const edited = (
        await call('PATCH', `/pages/${page.id}`, {
          bodyJson: [{ type: 'paragraph', text: 'New terms.' }],
          status: 'draft',
        })
      ).json();
      expect(edited).toMatchObject({ status: 'draft', bodyText: 'New terms.', publishedAt: published.publishedAt });
      expect((await call('PATCH', `/pages/${page.id}`, { status: 'archived' })).statusCode).toBe(400);
    });

    it('soft-deletes: returns the snapshot with deletedAt, hides the page everywhere, frees the slug', async () => {
      const page = (await call('POST', '/pages', { title: 'Gone soon', status: 'published' })).json();
      const deleted = await call('DELETE', `/pages/${page.id}`);
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json()).toMatchObject({ id: page.id, title: 'Gone soon', slug: 'gone-soon' });
      expect(deleted.json().deletedAt).not.toBeNull();
      expect((await call('GET', `/pages/${page.id}`)).statusCode).toBe(404);
      expect((await call('GET', '/pages/gone-soon')).statusCode).toBe(404);
      const listed = (await call('GET', '/pages?pageSize=100&status=published')).json();
      expect(listed.data.map((p: { id: string }) => p.id)).not.toContain(page.id);
      expect((await call('POST', '/pages', { title: 'Gone soon' })).json().slug).toBe('gone-soon');
    });
  });

  describe('list', () => {
    it('filters by status and by q (words in any case, Unicode, punctuation between words), with pagination', async () => {
      const fresh = await ctx.ownerKey();
      const post = (payload: object) => call('POST', '/pages', payload, fresh.key);
      await post({ title: 'Été à Paris', status: 'published' });
      await post({ title: 'Pricing', bodyJson: [{ type: 'paragraph', text: 'Save 100% today' }] });
      await post({ title: 'snake_case notes' });
      await post({ title: 'Plain' });
      const list = async (query: string) => (await call('GET', `/pages?${query}`, undefined, fresh.key)).json();

      expect((await list('q=%C3%89T%C3%89')).data.map((p: { title: string }) => p.title)).toEqual(['Été à Paris']);
      expect((await list('q=100%25')).data.map((p: { title: string }) => p.title)).toEqual(['Pricing']);
      expect((await list('q=%25')).total).toBe(0);
      expect((await list('q=case%20snake')).data.map((p: { title: string }) => p.title)).toEqual(['snake_case notes']);
      expect((await list('q=pari&status=published')).data.map((p: { title: string }) => p.title)).toEqual([
        'Été à Paris',
      ]);
      expect((await list('q=pari&status=draft')).total).toBe(0);
      expect((await list('status=published')).total).toBe(1);
      expect((await list('status=draft')).total).toBe(3);

      const sorted = await list('orderBy=title&order=asc&pageSize=2');
      expect(sorted).toMatchObject({ page: 1, pageSize: 2, order: 'asc', orderBy: 'title', total: 4, totalPages: 2 });
      expect(sorted.data.map((p: { title: string }) => p.title)).toEqual(['Plain', 'Pricing']);
      const unsorted = await list('pageSize=2&page=3');
      expect(unsorted).toMatchObject({ data: [], total: 4, order: 'desc' });
      expect(unsorted).not.toHaveProperty('orderBy');
      expect((await call('GET', '/pages?order=asc', undefined, fresh.key)).statusCode).toBe(400);
      expect((await call('GET', '/pages?status=archived', undefined, fresh.key)).statusCode).toBe(400);
    });

    it('costs a fixed number of queries whatever the page size', async () => {
      const fresh = await ctx.ownerKey();
      const mediaId = await insertMedia(ctx.runtime.database.db, fresh.workspace.id);
      for (let i = 0; i < 30; i += 1) {
        await call(
          'POST',
          '/pages',
          {
            title: `Page ${i}`,
            bodyJson: [
              { type: 'image', mediaId },
              { type: 'image', mediaId },
            ],
          },
          fresh.key,
        );
      }
      const cost = async (pageSize: number) => {
        const before = ctx.runtime.database.stats.queries;
        expect((await call('GET', `/pages?pageSize=${pageSize}`, undefined, fresh.key)).statusCode).toBe(200);
        return ctx.runtime.database.stats.queries - before;
      };
      // Authentication, page, count, site settings, media.
      expect(await cost(1)).toBe(5);
      expect(await cost(30)).toBe(5);
    });
  });

  describe('permissions and scoping', () => {
    it('needs pages:read to read and pages:write to write; write does not imply read', async () => {
      const reader = await ctx.memberKey(['pages:read']);
      const writer = await ctx.memberKey(['pages:write'], reader.workspace);
      expect((await call('GET', '/pages', undefined, reader.key)).statusCode).toBe(200);
      expect((await call('POST', '/pages', { title: 'x' }, reader.key)).statusCode).toBe(403);
      expect((await call('POST', '/pages', { title: 'x' }, writer.key)).statusCode).toBe(201);
      expect((await call('GET', '/pages', undefined, writer.key)).statusCode).toBe(403);
    });

    it('another workspace’s page is a 404 by id and by slug', async () => {
      const other = await ctx.ownerKey();
      const foreign = (await call('POST', '/pages', { title: 'Private page' }, other.key)).json();
      expect((await call('GET', `/pages/${foreign.id}`)).statusCode).toBe(404);
      expect((await call('GET', '/pages/private-page')).statusCode).toBe(404);
      expect((await call('PATCH', `/pages/${foreign.id}`, { title: 'mine' })).statusCode).toBe(404);
      expect((await call('DELETE', `/pages/${foreign.id}`)).statusCode).toBe(404);
    });
  });
});
