import crypto from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { filePart, png, uploadMedia } from '../helpers/media.js';

/** Every resource with an `seo` object, and the least body that creates one. */
const RESOURCES = [
  ['posts', { title: 'With an image' }],
  ['pages', { title: 'With an image' }],
  ['authors', { displayName: 'With an image' }],
  ['categories', { name: 'With an image' }],
  ['tags', { name: 'With an image' }],
] as const;

describeEachDialect('seo image references are checked against the workspace', (dialect) => {
  let ctx: TestContext;
  let key: string;
  let ownMedia: string;
  let otherMedia: string;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    ({ key } = await ctx.ownerKey());
    const other = await ctx.ownerKey();
    const upload = async (apiKey: string) => {
      const response = await uploadMedia(ctx, apiKey, [filePart(png(2, 2), 'og.png')]);
      expect(response.statusCode, response.body).toBe(201);
      return response.json().id as string;
    };
    ownMedia = await upload(key);
    otherMedia = await upload(other.key);
  });
  afterAll(() => ctx?.close());

  const send = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    ctx.app.inject({
      method,
      url: `${EXTERNAL}${url}`,
      headers: { 'x-api-key': key },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  const seoWith = (og: string, twitter: string) => ({ og: { imageMediaId: og }, twitter: { imageMediaId: twitter } });

  for (const [resource, base] of RESOURCES) {
    it(`${resource}: another workspace's media or none at all is a 400 naming the path, on create and PATCH`, async () => {
      const before = (await send('GET', `/${resource}`)).json().total as number;
      const refused = await send('POST', `/${resource}`, {
        ...base,
        seo: seoWith(otherMedia, crypto.randomUUID()),
      });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().details.issues).toEqual([
        { in: 'body', path: '/seo/og/imageMediaId', message: 'no media with this id in this workspace' },
        { in: 'body', path: '/seo/twitter/imageMediaId', message: 'no media with this id in this workspace' },
      ]);
      expect((await send('GET', `/${resource}`)).json().total).toBe(before);

      // Upper-case ids name the same media, on both dialects.
      const created = await send('POST', `/${resource}`, { ...base, seo: seoWith(ownMedia, ownMedia.toUpperCase()) });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json().id as string;
      const patched = await send('PATCH', `/${resource}/${id}`, { seo: { twitter: { imageMediaId: otherMedia } } });
      expect(patched.statusCode).toBe(400);
      expect(patched.json().details.issues).toEqual([
        { in: 'body', path: '/seo/twitter/imageMediaId', message: 'no media with this id in this workspace' },
      ]);
      expect((await send('GET', `/${resource}/${id}`)).json().seo).toEqual(seoWith(ownMedia, ownMedia.toUpperCase()));
    });
  }

  it('an image the stored seo already held is kept after its media is deleted, so GET → edit → PATCH works', async () => {
    const upload = await uploadMedia(ctx, key, [filePart(png(3, 3), 'gone.png')]);
    const doomed = upload.json().id as string;
    const created = await send('POST', '/tags', { name: 'Round trip', seo: seoWith(doomed, ownMedia) });
    expect(created.statusCode, created.body).toBe(201);
    expect((await send('DELETE', `/media/${doomed}`)).statusCode).toBe(200);
    const read = (await send('GET', `/tags/${created.json().id}`)).json();
    const edited = await send('PATCH', `/tags/${read.id}`, { seo: { ...read.seo, breadcrumbsTitle: 'Edited' } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().seo).toMatchObject({ og: { imageMediaId: doomed }, breadcrumbsTitle: 'Edited' });
    // A deleted media id that the stored seo did not hold is refused like any unknown one.
    const elsewhere = await send('POST', '/authors', { displayName: 'New', seo: seoWith(ownMedia, doomed) });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().details.issues[0].path).toBe('/seo/twitter/imageMediaId');
  });
});
