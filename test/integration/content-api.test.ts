import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, EXTERNAL, ownerActor, type TestContext, type TestWorkspace } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { insertAuthor, insertTag } from '../helpers/content.js';
import { createPost, postsApi, type Json, type PostsApi } from '../helpers/posts.js';

const CONTENT = '/api/v1/content';

describeEachDialect('content API and content keys', (dialect) => {
  let ctx: TestContext;
  let api: PostsApi;
  let workspace: TestWorkspace;
  let adminKey: string;
  let contentKey: string;
  let draftId: string;
  let publishedId: string;

  const admin = (method: 'GET' | 'POST' | 'PATCH', path: string, payload?: Json) =>
    ctx.app.inject({
      method,
      url: `${EXTERNAL}${path}`,
      headers: { 'x-api-key': adminKey },
      ...(payload === undefined ? {} : { payload }),
    });
  const read = (path: string, key = contentKey, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'GET', url: `${CONTENT}${path}${path.includes('?') ? '&' : '?'}key=${key}`, headers });

  async function newContentKey(body: Json): Promise<Json> {
    const response = await admin('POST', '/content-keys', body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }

  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    api = postsApi(ctx);
    ({ workspace, key: adminKey } = await ctx.ownerKey());
    contentKey = (await newContentKey({ name: 'Site' })).key as string;
    const db = ctx.runtime.database.db;
    const authorId = await insertAuthor(db, workspace.id, { displayName: 'Ada' });
    const tagId = await insertTag(db, workspace.id, { slug: 'engines', name: 'Engines' });
    publishedId = (
      await createPost(api, adminKey, {
        title: 'Live post',
        status: 'published',
        authorId,
        bodyJson: [{ type: 'paragraph', text: 'Hello **world**' }],
      })
    ).id;
    await api.attach(adminKey, publishedId, [tagId]);
    draftId = (await createPost(api, adminKey, { title: 'Secret draft' })).id;
  });
  afterAll(() => ctx?.close());

  describe('content keys', () => {
    it('are managed through the admin API: created, listed, renamed, limited to origins and revoked', async () => {
      const created = await newContentKey({ name: 'Browser', allowedOrigins: ['https://Example.com/'] });
      expect(created).toMatchObject({ name: 'Browser', status: 'Active', allowedOrigins: ['https://example.com'] });
      expect(created.key).toMatch(/^quire_content_[0-9A-Za-z]{38}$/);
      const listed = (await admin('GET', '/content-keys')).json<{ data: Json[] }>();
      expect(listed.data.map((key) => key.name)).toEqual(expect.arrayContaining(['Site', 'Browser']));
      const renamed = await admin('PATCH', `/content-keys/${created.id as string}`, { name: 'Renamed' });
      expect(renamed.json()).toMatchObject({ name: 'Renamed', key: created.key });
      expect((await read('/posts', created.key as string)).statusCode).toBe(200);
      const revoked = await admin('POST', `/content-keys/${created.id as string}/revoke`);
      expect(revoked.json()).toMatchObject({ status: 'Revoked' });
      expect((await read('/posts', created.key as string)).statusCode).toBe(401);
    });

    it('refuses an origin that is not a scheme and host, at its JSON Pointer', async () => {
      const response = await admin('POST', '/content-keys', {
        name: 'Bad',
        allowedOrigins: ['https://ok.example', 'https://example.com/path'],
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().details.issues[0].path).toBe('/allowedOrigins/1');
    });

    it('is refused by the admin API, and an admin key by the content API', async () => {
      const onAdmin = await ctx.app.inject({
        method: 'GET',
        url: `${EXTERNAL}/posts`,
        headers: { 'x-api-key': contentKey },
      });
      expect(onAdmin.statusCode).toBe(401);
      expect((await read('/posts', adminKey)).statusCode).toBe(401);
      expect((await ctx.app.inject({ method: 'GET', url: `${CONTENT}/posts` })).statusCode).toBe(401);
    });
  });

  describe('reads', () => {
    it('lists only published posts, newest first, and answers a draft as absent', async () => {
      const list = await read('/posts');
      expect(list.statusCode, list.body).toBe(200);
      const ids = list.json<{ data: Json[] }>().data.map((post) => post.id);
      expect(ids).toContain(publishedId);
      expect(ids).not.toContain(draftId);
      expect((await read(`/posts/${publishedId}`)).statusCode).toBe(200);
      const absent = await read(`/posts/${draftId}`);
      expect(absent.statusCode).toBe(404);
      expect(absent.headers['cache-control']).toBe('no-store');
      expect(absent.headers['surrogate-key']).toBeUndefined();
      expect((await read('/posts?status=draft')).statusCode).toBe(400);
    });

    it('writes nothing: a content key on any write is a 403, an unknown key on one a 401', async () => {
      for (const [method, path] of [
        ['POST', '/posts'],
        ['PATCH', `/posts/${publishedId}`],
        ['DELETE', `/posts/${publishedId}`],
        ['PUT', '/nowhere'],
      ] as const) {
        const refused = await ctx.app.inject({
          method,
          url: `${CONTENT}${path}?key=${contentKey}`,
          payload: { title: 'x' },
        });
        expect(refused.statusCode, `${method} ${path}`).toBe(403);
        expect(refused.json().code).toBe('FORBIDDEN');
      }
      const anonymous = await ctx.app.inject({ method: 'POST', url: `${CONTENT}/posts`, payload: { title: 'x' } });
      expect(anonymous.statusCode).toBe(401);
      expect((await api.get(adminKey, publishedId)).json().title).toBe('Live post');
    });

    it('answers shared-cache headers and names the workspace and every resource the answer holds', async () => {
      const one = await read(`/posts/${publishedId}`);
      const post = one.json<Json>();
      expect(one.headers['cache-control']).toMatch(/public.*s-maxage=\d+.*stale-while-revalidate/);
      const keys = String(one.headers['surrogate-key']).split(' ');
      expect(keys).toEqual(
        expect.arrayContaining([
          `ws-${workspace.id}`,
          `post-${publishedId}`,
          `author-${post.authorId as string}`,
          `tag-${(post.tags as Json[])[0]!.id as string}`,
        ]),
      );
      expect(String(one.headers['cache-tag']).split(',')).toEqual(keys);
      // Cut to one field, the answer still names what the whole of it holds, from the cache too.
      for (let i = 0; i < 2; i += 1) {
        const cut = await read(`/posts/${publishedId}?fields=title`);
        expect(cut.json()).toEqual({ id: publishedId, title: 'Live post' });
        expect(String(cut.headers['surrogate-key']).split(' ')).toEqual(expect.arrayContaining(keys));
      }
      const list = await read('/posts');
      expect(String(list.headers['surrogate-key']).split(' ')).toEqual([`ws-${workspace.id}`, `posts-${workspace.id}`]);
    });
  });

  describe('bodyHtml', () => {
    it('is added on request only, and a warm read serves the HTML kept with the stored render', async () => {
      const plain = await read(`/posts/${publishedId}`);
      expect(plain.json()).not.toHaveProperty('bodyHtml');
      const asked = await read(`/posts/${publishedId}?formats=html`);
      expect(asked.statusCode, asked.body).toBe(200);
      expect(asked.json().bodyHtml).toBe('<p>Hello <strong>world</strong></p>');
      // The single read kept what it rendered with the stored render.
      const kept = await ctx.runtime.database.db
        .selectFrom('post_renders')
        .select('html')
        .where('post_id', '=', publishedId)
        .executeTakeFirst();
      expect(kept?.html).toBe('<p>Hello <strong>world</strong></p>');
      // The bytes before it are the plain answer's: the field is added at the end.
      expect(asked.body.startsWith(plain.body.slice(0, -1))).toBe(true);
      expect((await read(`/posts/${publishedId}?fields=title,bodyHtml`)).json()).toEqual({
        id: publishedId,
        title: 'Live post',
        bodyHtml: '<p>Hello <strong>world</strong></p>',
      });
      // What the next uncached read answers is what was kept: no rendering on a warm read.
      await ctx.runtime.database.db
        .updateTable('post_renders')
        .set({ html: '<p>kept</p>' })
        .where('post_id', '=', publishedId)
        .execute();
      const admin = await ctx.app.inject({
        method: 'GET',
        url: `${EXTERNAL}/posts/${publishedId}?formats=html`,
        headers: { 'x-api-key': adminKey },
      });
      expect(admin.json().bodyHtml).toBe('<p>kept</p>');
      const list = await read('/posts?formats=html');
      expect(list.json<{ data: Json[] }>().data.find((post) => post.id === publishedId)?.bodyHtml).toBe('<p>kept</p>');
      expect((await read('/posts?formats=markdown')).statusCode).toBe(400);
    });

    it('is rendered anew once the post changes', async () => {
      const updated = await api.patch(adminKey, publishedId, {
        bodyJson: [{ type: 'paragraph', text: 'Hello *again*' }],
      });
      expect(updated.statusCode).toBe(200);
      expect(updated.json()).not.toHaveProperty('bodyHtml');
      expect((await read(`/posts/${publishedId}?formats=html`)).json().bodyHtml).toBe('<p>Hello <em>again</em></p>');
    });
  });

  describe('CORS', () => {
    it('answers any origin for a key without allowed origins, preflight included', async () => {
      const answer = await read('/posts', contentKey, { origin: 'https://anywhere.example' });
      expect(answer.headers['access-control-allow-origin']).toBe('*');
      const preflight = await ctx.app.inject({
        method: 'OPTIONS',
        url: `${CONTENT}/posts?key=${contentKey}`,
        headers: { origin: 'https://anywhere.example', 'access-control-request-method': 'GET' },
      });
      expect(preflight.statusCode).toBe(204);
      expect(preflight.headers['access-control-allow-methods']).toContain('GET');
    });

    it('answers only the allowed origins of a limited key', async () => {
      const limited = (await newContentKey({ name: 'Limited', allowedOrigins: ['https://site.example'] }))
        .key as string;
      const allowed = await read('/posts', limited, { origin: 'https://site.example' });
      expect(allowed.headers['access-control-allow-origin']).toBe('https://site.example');
      expect(allowed.headers.vary).toContain('Origin');
      const other = await read('/posts', limited, { origin: 'https://evil.example' });
      expect(other.statusCode).toBe(200);
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
      // Served from the response cache, whose answer varies on the encoding too: a shared cache must still tell
      // the origins apart.
      expect(other.body.length).toBeGreaterThan(1024);
      expect(other.headers.vary).toContain('Origin');
      expect(other.headers.vary).toContain('Accept-Encoding');
      const preflight = await ctx.app.inject({
        method: 'OPTIONS',
        url: `${CONTENT}/posts?key=${limited}`,
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
      });
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
      expect(preflight.headers['access-control-allow-methods']).toBeUndefined();
    });
  });

  describe('compression', () => {
    it('sends published posts in gzip spliced from their stored forms, varying on origin and encoding', async () => {
      const limited = (await newContentKey({ name: 'Gzip', allowedOrigins: ['https://site.example'] })).key as string;
      const origin = { origin: 'https://site.example' };
      for (const path of ['/posts?pageSize=5', `/posts/${publishedId}`]) {
        // The first answer is made for this request; the second comes from the response cache.
        const answers = [
          await read(path, limited, { ...origin, 'accept-encoding': 'gzip' }),
          await read(path, limited, { ...origin, 'accept-encoding': 'gzip' }),
        ];
        const identity = await read(path, limited, origin);
        expect(identity.rawPayload.length, path).toBeGreaterThan(1024);
        for (const answer of answers) {
          expect(answer.headers['content-encoding'], path).toBe('gzip');
          // A spliced member's header names no level (XFL 0); zlib's fastest, compressing on the request, names 4.
          expect(answer.rawPayload[8], path).toBe(0);
          expect(zlib.gunzipSync(answer.rawPayload).equals(identity.rawPayload), path).toBe(true);
          expect(answer.headers.vary, path).toContain('Origin');
          expect(answer.headers.vary, path).toContain('Accept-Encoding');
        }
      }
    });
  });

  describe('previews', () => {
    it('reads one draft with its token, and nothing else', async () => {
      const made = await admin('POST', `/posts/${draftId}/preview`, {});
      expect(made.statusCode, made.body).toBe(201);
      const { token, expiresAt, url } = made.json<{ token: string; expiresAt: string; url: string | null }>();
      expect(token).toMatch(/^quire_preview_/);
      expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(3500_000);
      expect(url).toBeNull();
      const preview = await read(`/preview/posts/${draftId}?token=${encodeURIComponent(token)}`);
      expect(preview.statusCode, preview.body).toBe(200);
      expect(preview.json().title).toBe('Secret draft');
      expect(preview.headers['cache-control']).toBe('no-store');
      expect(preview.headers['surrogate-key']).toBeUndefined();
      // Another resource, a tampered token, a page route: all the same 404.
      const refusals = [
        `/preview/posts/${publishedId}?token=${encodeURIComponent(token)}`,
        `/preview/posts/${draftId}?token=${encodeURIComponent(token.slice(0, -2) + 'xx')}`,
        `/preview/pages/${draftId}?token=${encodeURIComponent(token)}`,
      ];
      const bodies = [];
      for (const path of refusals) {
        const refused = await read(path);
        expect(refused.statusCode).toBe(404);
        bodies.push(refused.json().message);
      }
      expect(new Set(bodies).size).toBe(1);
      // Never logged.
      expect(JSON.stringify(ctx.logs)).not.toContain(token.slice(20));
    });

    it('answers a post deleted since its token was made as the same 404', async () => {
      const doomed = (await createPost(api, adminKey, { title: 'Doomed draft' })).id;
      const token = (await admin('POST', `/posts/${doomed}/preview`, {})).json<{ token: string }>().token;
      const tampered = await read(`/preview/posts/${doomed}?token=${encodeURIComponent(token.slice(0, -2) + 'xx')}`);
      expect((await api.remove(adminKey, doomed)).statusCode).toBe(200);
      const gone = await read(`/preview/posts/${doomed}?token=${encodeURIComponent(token)}`);
      expect(gone.statusCode).toBe(404);
      expect(gone.json().message).toBe(tampered.json().message);
    });

    it('is refused in another workspace, with the same 404', async () => {
      const token = (await admin('POST', `/posts/${draftId}/preview`, {})).json<{ token: string }>().token;
      const other = await ctx.ownerKey();
      const otherContent = (
        await ctx.app.inject({
          method: 'POST',
          url: `${EXTERNAL}/content-keys`,
          headers: { 'x-api-key': other.key },
          payload: { name: 'Other' },
        })
      ).json<{ key: string }>().key;
      const refused = await read(`/preview/posts/${draftId}?token=${encodeURIComponent(token)}`, otherContent);
      expect(refused.statusCode).toBe(404);
    });

    it('fills the preview URL pattern, and refuses a pattern without the token or a lifetime out of bounds', async () => {
      const owner = ownerActor(workspace);
      const settings = ctx.runtime.services.dashboard.settings;
      await expect(settings.update(owner, { previewUrlPattern: '/preview/{id}' })).rejects.toMatchObject({
        details: { issues: [{ path: '/previewUrlPattern' }] },
      });
      await settings.update(owner, {
        siteUrl: 'https://blog.example.com',
        previewUrlPattern: '/api/preview?type={type}&id={id}&token={token}',
      });
      const response = await admin('POST', `/posts/${draftId}/preview`);
      expect(response.statusCode, response.body).toBe(201);
      const made = response.json<{ token: string; url: string }>();
      expect(made.url).toBe(
        `https://blog.example.com/api/preview?type=post&id=${draftId}&token=${encodeURIComponent(made.token)}`,
      );
      await settings.update(owner, { previewUrlPattern: 'https://preview.example.net/draft/{token}' });
      const absolute = (await admin('POST', `/posts/${draftId}/preview`)).json<{ token: string; url: string }>();
      expect(absolute.url).toBe(`https://preview.example.net/draft/${encodeURIComponent(absolute.token)}`);
      const bad = await ctx.app.inject({
        method: 'POST',
        url: `${EXTERNAL}/posts/${draftId}/preview`,
        headers: { 'x-api-key': adminKey },
        payload: { expiresInSeconds: 5 },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details.issues[0].path).toBe('/expiresInSeconds');
    });
  });
});

describeEachDialect('content API rate limit', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect, { env: { QUIRE_RATE_LIMIT_MAX: '3', QUIRE_RATE_LIMIT_WINDOW_MS: '60000' } });
  });
  afterAll(() => ctx?.close());

  it('counts content reads like the rest, refused ones too, and answers 429 past the limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1)
      statuses.push((await ctx.app.inject({ method: 'GET', url: `${CONTENT}/posts?key=nope` })).statusCode);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    const limited = await ctx.app.inject({ method: 'GET', url: `${CONTENT}/posts?key=nope` });
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.headers['ratelimit-limit']).toBe('3');
  });
});
