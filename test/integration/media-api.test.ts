import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Media } from '../../src/modules/media/media.schemas.js';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { filePart, pathOf, png, SVG, uploadMedia } from '../helpers/media.js';
import {
  createPost,
  expectError,
  expectIssue,
  getPost,
  image,
  NO_SUCH_ID,
  paragraph,
  postsApi,
  type Json,
} from '../helpers/posts.js';

interface MediaPage {
  data: Media[];
  page: number;
  pageSize: number;
  order: string;
  orderBy?: string;
  total: number;
  totalPages: number;
}

const PDF = Buffer.from('%PDF-1.4\n%%EOF\n');

describeEachDialect('media: list, read, edit, delete', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
  });
  afterAll(() => ctx?.close());

  const db = () => ctx.runtime.database.db;
  const call = (key: string, method: 'GET' | 'PATCH' | 'DELETE' | 'POST', path: string, payload?: Json) =>
    ctx.app.inject({
      method,
      url: `${EXTERNAL}${path}`,
      headers: { 'x-api-key': key },
      ...(payload === undefined ? {} : { payload }),
    });

  async function upload(
    key: string,
    bytes: Buffer,
    filename: string,
    fields: { alt?: string; caption?: string } = {},
  ): Promise<Media> {
    const parts = [filePart(bytes, filename), ...Object.entries(fields).map(([name, data]) => ({ name, data }))];
    const response = await uploadMedia(ctx, key, parts);
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as Media;
  }

  async function list(key: string, query: Record<string, string | number> = {}): Promise<MediaPage> {
    const search = new URLSearchParams(
      Object.entries(query).map(([name, value]): [string, string] => [name, String(value)]),
    ).toString();
    const response = await call(key, 'GET', `/media${search ? `?${search}` : ''}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as MediaPage;
  }

  /** A workspace holding four files of distinct types, sizes and creation times. */
  async function library() {
    const { workspace, key } = await ctx.ownerKey();
    const small = await upload(key, png(1, 1), 'small.png', { alt: 'Crème brûlée on a plate' });
    const large = await upload(key, png(40, 40), 'large.png', { caption: 'A wide LANDSCAPE' });
    const logo = await upload(key, SVG, 'logo.svg', { alt: 'Company logo' });
    const report = await upload(key, PDF, 'annual-report.pdf');
    // Uploads within one millisecond would tie; distinct days make the order by age certain.
    const [s, l, g, r] = await Promise.all(
      [small, large, logo, report].map(async (media, index) => {
        const createdAt = new Date(Date.UTC(2024, 0, index + 1)).toISOString();
        await db().updateTable('media').set({ created_at: createdAt }).where('id', '=', media.id).execute();
        return { ...media, createdAt };
      }),
    );
    return { workspace, key, small: s!, large: l!, logo: g!, report: r! };
  }

  describe('GET /media', () => {
    it('lists newest first by default, without orderBy in the answer', async () => {
      const { key, small, large, logo, report } = await library();
      const page = await list(key);
      expect(page.data.map((m) => m.id)).toEqual([report.id, logo.id, large.id, small.id]);
      expect(page).toMatchObject({ page: 1, pageSize: 10, order: 'desc', total: 4, totalPages: 1 });
      expect(page).not.toHaveProperty('orderBy');
      expect(page.data[0]).toMatchObject({
        filename: 'annual-report.pdf',
        mimeType: 'application/pdf',
        createdAt: '2024-01-04T00:00:00.000Z',
      });
    });

    it('sorts by createdAt, sizeBytes and mimeType in both directions', async () => {
      const { key, small, large, logo, report } = await library();
      const ids = async (orderBy: string, order: string) => {
        const page = await list(key, { orderBy, order });
        expect(page).toMatchObject({ orderBy, order });
        return page.data.map((m) => m.id);
      };
      expect(await ids('createdAt', 'asc')).toEqual([small.id, large.id, logo.id, report.id]);
      expect(await ids('createdAt', 'desc')).toEqual([report.id, logo.id, large.id, small.id]);
      const bySize = [small, large, logo, report].sort((a, b) => a.sizeBytes - b.sizeBytes).map((m) => m.id);
      expect(await ids('sizeBytes', 'asc')).toEqual(bySize);
      expect(await ids('sizeBytes', 'desc')).toEqual([...bySize].reverse());
      // application/pdf < image/png (twice, ties broken by id) < image/svg+xml
      const pngs = [small.id, large.id].sort();
      expect(await ids('mimeType', 'asc')).toEqual([report.id, ...pngs, logo.id]);
      expect(await ids('mimeType', 'desc')).toEqual([logo.id, ...[...pngs].reverse(), report.id]);
      expect((await list(key, { orderBy: 'sizeBytes' })).order).toBe('desc');
    });

    it('filters by mimeTypePrefix, case-insensitively', async () => {
      const { key, small, large, logo, report } = await library();
      const ids = async (prefix: string) =>
        (await list(key, { mimeTypePrefix: prefix, orderBy: 'createdAt', order: 'asc' })).data.map((m) => m.id);
      expect(await ids('image/')).toEqual([small.id, large.id, logo.id]);
      expect(await ids('IMAGE/PNG')).toEqual([small.id, large.id]);
      expect(await ids('application/')).toEqual([report.id]);
      expect(await ids('video/')).toEqual([]);
      expectIssue(await call(key, 'GET', '/media?mimeTypePrefix=image%25'), '/mimeTypePrefix');
    });

    it('searches alt, caption and filename with q, case-insensitively in any script', async () => {
      const { key, small, large, logo, report } = await library();
      const ids = async (q: string) =>
        (await list(key, { q, orderBy: 'createdAt', order: 'asc' })).data.map((m) => m.id);
      expect(await ids('CRÈME')).toEqual([small.id]);
      expect(await ids('landscape')).toEqual([large.id]);
      expect(await ids('logo')).toEqual([logo.id]);
      expect(await ids('Annual-Report')).toEqual([report.id]);
      expect(await ids('.png')).toEqual([small.id, large.id]);
      expect(await ids('%')).toEqual([]);
      expect((await list(key, { q: 'logo', mimeTypePrefix: 'application/' })).total).toBe(0);
    });

    it('paginates: pageSize 1 to 100, a page past the end is empty with the true total', async () => {
      const { key, small, large } = await library();
      const second = await list(key, { pageSize: 2, page: 2, orderBy: 'createdAt', order: 'asc' });
      expect(second).toMatchObject({ page: 2, pageSize: 2, total: 4, totalPages: 2 });
      expect(second.data.map((m) => m.id)).not.toContain(small.id);
      expect((await list(key, { pageSize: 2, orderBy: 'createdAt', order: 'asc' })).data.map((m) => m.id)).toEqual([
        small.id,
        large.id,
      ]);
      expect(await list(key, { page: 9 })).toMatchObject({ data: [], total: 4, totalPages: 1 });
      expect((await list(key, { pageSize: 100 })).pageSize).toBe(100);
      expectIssue(await call(key, 'GET', '/media?pageSize=0'), '/pageSize');
      expectIssue(await call(key, 'GET', '/media?pageSize=101'), '/pageSize');
      expectIssue(await call(key, 'GET', '/media?page=0'), '/page');
      expectIssue(await call(key, 'GET', '/media?order=asc'), '/order', /requires orderBy/);
      expectIssue(await call(key, 'GET', '/media?orderBy=filename'), '/orderBy');
      expectIssue(await call(key, 'GET', '/media?pagesize=5'), '/pagesize', /not a known field/);
    });

    it("never shows another workspace's media", async () => {
      const mine = await library();
      const theirs = await ctx.ownerKey();
      await upload(theirs.key, png(2, 2), 'theirs.png', { alt: 'Crème' });
      const page = await list(mine.key, { q: 'crème' });
      expect(page.data.map((m) => m.workspaceId)).toEqual([mine.workspace.id]);
      expect((await list(theirs.key)).total).toBe(1);
    });
  });

  describe('GET /media/{id}', () => {
    it('answers the media; 404 for an absent id and for another workspace; 400 for a malformed id', async () => {
      const { key, logo } = await library();
      const other = await ctx.ownerKey();
      const response = await call(key, 'GET', `/media/${logo.id}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(logo);
      expectError(await call(key, 'GET', `/media/${NO_SUCH_ID}`), 404, 'NOT_FOUND');
      expectError(await call(other.key, 'GET', `/media/${logo.id}`), 404, 'NOT_FOUND');
      expectIssue(await call(key, 'GET', '/media/logo.svg'), '/id');
    });
  });

  describe('PATCH /media/{id}', () => {
    it('changes alt and caption only as sent; null clears; q finds the new text', async () => {
      const { key, small } = await library();
      const patch = (body: Json) => call(key, 'PATCH', `/media/${small.id}`, body);
      const captioned = await patch({ caption: 'Dessert, close up' });
      expect(captioned.statusCode).toBe(200);
      expect(captioned.json()).toEqual({ ...small, caption: 'Dessert, close up' });
      const cleared = (await patch({ alt: null })).json() as Media;
      expect(cleared).toMatchObject({
        alt: null,
        caption: 'Dessert, close up',
        url: small.url,
        sizeBytes: small.sizeBytes,
      });
      expect((await call(key, 'GET', `/media/${small.id}`)).json()).toEqual(cleared);
      expect((await list(key, { q: 'dessert' })).data.map((m) => m.id)).toEqual([small.id]);
      expect((await list(key, { q: 'brûlée' })).total).toBe(0);
      expect((await patch({})).json()).toEqual(cleared);
    });

    it('refuses unknown and read-only fields by name, and bad values', async () => {
      const { key, small } = await library();
      const patch = (body: Json) => call(key, 'PATCH', `/media/${small.id}`, body);
      expectIssue(await patch({ title: 'x' }), '/title', /not a known field/);
      for (const field of [
        'url',
        'mimeType',
        'filename',
        'sizeBytes',
        'width',
        'height',
        'storagePath',
        'id',
        'createdAt',
        'uploadedByUserId',
      ]) {
        expectIssue(await patch({ [field]: 'x' }), `/${field}`, new RegExp(`${field} is read-only`));
      }
      expectIssue(await patch({ alt: 42 }), '/alt');
      expectIssue(await patch({ alt: 'x'.repeat(1001) }), '/alt');
      expectIssue(await patch({ caption: 'x'.repeat(2001) }), '/caption');
      const notJson = await ctx.app.inject({
        method: 'PATCH',
        url: `${EXTERNAL}/media/${small.id}`,
        headers: { 'x-api-key': key, 'content-type': 'text/plain' },
        payload: 'alt=x',
      });
      expect(expectError(notJson, 400, 'BAD_REQUEST').details).toMatchObject({ reason: 'unsupported_media_type' });
    });

    it('sets the focal point as fractions kept to 3 decimals; other writes keep it; null clears it', async () => {
      const { key, small } = await library();
      const patch = (body: Json) => call(key, 'PATCH', `/media/${small.id}`, body);
      expect(small.focalPoint).toBeNull();
      const set = await patch({ focalPoint: { x: 0.12345, y: 1 } });
      expect(set.statusCode, set.body).toBe(200);
      expect(set.json()).toEqual({ ...small, focalPoint: { x: 0.123, y: 1 } });
      expect(((await call(key, 'GET', `/media/${small.id}`)).json() as Media).focalPoint).toEqual({ x: 0.123, y: 1 });
      expect(((await patch({ alt: 'Pudding' })).json() as Media).focalPoint).toEqual({ x: 0.123, y: 1 });
      expect((await list(key)).data.find((m) => m.id === small.id)?.focalPoint).toEqual({ x: 0.123, y: 1 });
      expect(((await patch({ focalPoint: { x: 0, y: 0 } })).json() as Media).focalPoint).toEqual({ x: 0, y: 0 });
      expect(((await patch({ focalPoint: null })).json() as Media).focalPoint).toBeNull();

      expectIssue(await patch({ focalPoint: { x: 1.5, y: 0 } }), '/focalPoint/x', /<= 1/);
      expectIssue(await patch({ focalPoint: { x: -0.1, y: 0 } }), '/focalPoint/x', />= 0/);
      expectIssue(await patch({ focalPoint: { x: 0.5 } }), '/focalPoint/y', /required/);
      expectIssue(await patch({ focalPoint: { x: 0.5, y: 0.5, z: 0 } }), '/focalPoint/z', /not a known field/);
      expectIssue(await patch({ focalPoint: { x: '0.5', y: 0.5 } }), '/focalPoint/x');
      expectIssue(await patch({ focalPoint: [0.5, 0.5] }), '/focalPoint');
    });

    it('404 for an absent id and for another workspace', async () => {
      const { key, small } = await library();
      const other = await ctx.ownerKey();
      expectError(await call(key, 'PATCH', `/media/${NO_SUCH_ID}`, { alt: 'x' }), 404, 'NOT_FOUND');
      expectError(await call(other.key, 'PATCH', `/media/${small.id}`, { alt: 'x' }), 404, 'NOT_FOUND');
      expect(((await call(key, 'GET', `/media/${small.id}`)).json() as Media).alt).toBe(small.alt);
    });
  });

  describe('DELETE /media/{id}', () => {
    it('clears featured images, avatars and the workspace logo; image blocks keep the id and read url null', async () => {
      const { workspace, key, small, large } = await library();
      const posts = postsApi(ctx);
      const authorResponse = await call(key, 'POST', '/authors', {
        displayName: 'Ada Lovelace',
        avatarMediaId: small.id,
      });
      expect(authorResponse.statusCode, authorResponse.body).toBe(201);
      const author = authorResponse.json() as { id: string; avatarMedia: Media | null };
      expect(author.avatarMedia?.id).toBe(small.id);
      const post = await createPost(posts, key, {
        title: 'Desserts',
        featuredMediaId: small.id,
        authorId: author.id,
        bodyJson: [paragraph('Look:'), image(small.id, { alt: 'Dessert' }), image(large.id)],
      });
      expect(post.featuredMedia?.url).toBe(small.url);
      expect(post.bodyJson[1]).toMatchObject({ type: 'image', mediaId: small.id, url: small.url });
      await db().updateTable('workspaces').set({ logo_media_id: small.id }).where('id', '=', workspace.id).execute();

      const removed = await call(key, 'DELETE', `/media/${small.id}`);
      expect(removed.statusCode).toBe(200);
      expect(removed.json()).toEqual(small);

      const after = await getPost(posts, key, post.id);
      expect(after).toMatchObject({ featuredMediaId: null, featuredMedia: null });
      expect(after.author).toMatchObject({ id: author.id, avatarMediaId: null, avatarMedia: null });
      expect(after.bodyJson[1]).toEqual({ type: 'image', mediaId: small.id, alt: 'Dessert', url: null });
      expect(after.bodyJson[2]).toMatchObject({ mediaId: large.id, url: large.url });
      const logo = await db()
        .selectFrom('workspaces')
        .select('logo_media_id')
        .where('id', '=', workspace.id)
        .executeTakeFirstOrThrow();
      expect(logo.logo_media_id).toBeNull();
      // The post still round-trips: its body keeps the id of the media that is gone.
      expect((await posts.patch(key, post.id, { bodyJson: after.bodyJson })).statusCode).toBe(200);

      expectError(await call(key, 'GET', `/media/${small.id}`), 404, 'NOT_FOUND');
      expectError(await ctx.app.inject({ method: 'GET', url: pathOf(small.url) }), 404, 'NOT_FOUND');
      expectError(await call(key, 'DELETE', `/media/${small.id}`), 404, 'NOT_FOUND');
    });

    it("leaves another workspace's logo alone and cannot reach another workspace's media", async () => {
      const mine = await library();
      const theirs = await ctx.ownerKey();
      await db()
        .updateTable('workspaces')
        .set({ logo_media_id: mine.logo.id })
        .where('id', '=', theirs.workspace.id)
        .execute();
      expectError(await call(theirs.key, 'DELETE', `/media/${mine.logo.id}`), 404, 'NOT_FOUND');
      expect((await call(mine.key, 'GET', `/media/${mine.logo.id}`)).statusCode).toBe(200);
      expect((await call(mine.key, 'DELETE', `/media/${mine.logo.id}`)).statusCode).toBe(200);
      const row = await db()
        .selectFrom('workspaces')
        .select('logo_media_id')
        .where('id', '=', theirs.workspace.id)
        .executeTakeFirstOrThrow();
      expect(row.logo_media_id).toBe(mine.logo.id);
      expectError(await call(mine.key, 'DELETE', `/media/${crypto.randomUUID()}`), 404, 'NOT_FOUND');
    });
  });

  describe('permissions: media:read reads, media:write writes, neither implies the other', () => {
    it('each route needs its own permission', async () => {
      const { workspace, small } = await library();
      const reader = await ctx.memberKey(['media:read'], workspace);
      const writer = await ctx.memberKey(['media:write'], workspace);
      const poster = await ctx.memberKey(['posts:read', 'posts:write'], workspace);

      expect((await call(reader.key, 'GET', '/media')).statusCode).toBe(200);
      expect((await call(reader.key, 'GET', `/media/${small.id}`)).statusCode).toBe(200);
      expectError(await call(reader.key, 'PATCH', `/media/${small.id}`, { alt: 'x' }), 403, 'FORBIDDEN');
      expectError(await call(reader.key, 'DELETE', `/media/${small.id}`), 403, 'FORBIDDEN');

      expectError(await call(writer.key, 'GET', '/media'), 403, 'FORBIDDEN');
      expectError(await call(writer.key, 'GET', `/media/${small.id}`), 403, 'FORBIDDEN');
      expect((await call(writer.key, 'PATCH', `/media/${small.id}`, { alt: 'x' })).statusCode).toBe(200);

      for (const [method, path] of [
        ['GET', '/media'],
        ['GET', `/media/${small.id}`],
        ['PATCH', `/media/${small.id}`],
        ['DELETE', `/media/${small.id}`],
      ] as const) {
        expectError(
          await call(poster.key, method, path, method === 'PATCH' ? { alt: 'x' } : undefined),
          403,
          'FORBIDDEN',
        );
      }
      // Permission comes before validation and lookup.
      expectError(await call(writer.key, 'GET', '/media?pageSize=0'), 403, 'FORBIDDEN');
      expectError(await call(reader.key, 'DELETE', `/media/${NO_SUCH_ID}`), 403, 'FORBIDDEN');
      expect((await call(writer.key, 'DELETE', `/media/${small.id}`)).statusCode).toBe(200);
    });

    it('every media route answers 401 without a key', async () => {
      for (const [method, path] of [
        ['GET', '/media'],
        ['POST', '/media'],
        ['GET', `/media/${NO_SUCH_ID}`],
        ['PATCH', `/media/${NO_SUCH_ID}`],
        ['DELETE', `/media/${NO_SUCH_ID}`],
      ] as const) {
        expectError(await ctx.app.inject({ method, url: `${EXTERNAL}${path}` }), 401, 'UNAUTHORIZED');
      }
    });
  });
});
