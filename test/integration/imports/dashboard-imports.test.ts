import { readdir } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportLine } from '../../../src/modules/imports/imports.schemas.js';
import { progressLines } from '../../../src/modules/imports/imports.stream.js';
import { storedName } from '../../../src/modules/imports/imports.upload.js';
import { buildTestApp, type TestContext } from '../../helpers/app.js';
import { DASHBOARD, signedInMember, signedInOwner, type Browser } from '../../helpers/dashboard.js';
import { describeEachDialect } from '../../helpers/database.js';
import { multipart, png, type FormPart } from '../../helpers/media.js';

/*
 * The Import screen's route: the owner uploads an export (here a zip of a Markdown folder, made below), and the
 * answer streams progress lines and then the report, or an error line once it has begun.
 */

const LIMIT = 96 * 1024;

/** A zip of `files` as bytes, as someone zips a content folder. */
function zipOf(files: Record<string, string | Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, data] of Object.entries(files)) zip.addBuffer(Buffer.from(data), name);
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((done, fail) => {
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => done(Buffer.concat(chunks)));
    zip.outputStream.on('error', fail);
  });
}

/** yazl refuses a ".." name, as it should: the name is written as a same-length one and patched in the bytes. */
function renamed(zip: Buffer, from: string, to: string): Buffer {
  const out = Buffer.from(zip);
  const needle = Buffer.from(from);
  for (let at = out.indexOf(needle); at !== -1; at = out.indexOf(needle, at + 1)) Buffer.from(to).copy(out, at);
  return out;
}

const SITE = {
  'blog/posts/hello.md': [
    '---',
    'title: "Hello 👋 world"',
    'date: 2024-01-02T10:00:00+01:00',
    'tags: [Notes]',
    '---',
    '',
    'First words, then a picture: ![A dot](../images/dot.png)',
    '',
  ].join('\n'),
  'blog/posts/shalom.md': [
    '---',
    'title: "שלום עולם — café"',
    'date: 2024-02-03',
    '---',
    '',
    'Right to left: שלום. Combining: cafe\u0301.',
    '',
  ].join('\n'),
  'blog/images/dot.png': png(8, 6),
};

interface Line {
  type: 'progress' | 'report' | 'error';
  done?: number;
  total?: number | null;
  message?: string;
  report?: {
    dryRun: boolean;
    counts: Record<string, Record<string, number>>;
    items: Array<{ type: string; title: string; action: string }>;
  };
}

const linesOf = (body: string): Line[] =>
  body
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Line);

/** Scratch folders of imports holding an upload: each is removed when its import ends. */
async function uploadsHeld(): Promise<string[]> {
  const scratch = (await readdir(tmpdir())).filter((name) => name.startsWith('quire-import-'));
  const held = await Promise.all(
    scratch.map(async (name) =>
      (await readdir(path.join(tmpdir(), name)).catch((): string[] => [])).includes('upload'),
    ),
  );
  return scratch.filter((_, index) => held[index]);
}

describe('the pieces of the import route', () => {
  it('sends the first and last count, and between them at most one line each interval', () => {
    const lines: ImportLine[] = [];
    let now = 0;
    const progress = progressLines(
      (line) => lines.push(line),
      () => now,
      100,
    );
    progress.start('import', 50, 'posts and pages');
    for (let done = 1; done <= 50; done += 1) {
      now += 10;
      progress.update(done);
    }
    progress.end();
    expect(lines[0]).toEqual({ type: 'progress', done: 0, total: 50 });
    expect(lines.at(-1)).toEqual({ type: 'progress', done: 50, total: 50 });
    expect(lines.map((line) => (line.type === 'progress' ? line.done : -1))).toEqual([0, 10, 20, 30, 40, 50]);
  });

  it('saves the upload under the person’s file name, made safe', () => {
    expect(storedName('my-blog.zip')).toBe('my-blog.zip');
    expect(storedName('C:\\Users\\ann\\export.json')).toBe('export.json');
    expect(storedName('../../etc/passwd')).toBe('passwd');
    expect(storedName('..')).toBe('upload');
    expect(storedName('.hidden.xml')).toBe('hidden.xml');
    expect(storedName('שלום 👋 cafe\u0301.zip')).toBe('שלום - café.zip');
    expect(storedName('a\u0000b\ud800.zip')).toBe('a-b-.zip');
  });
});

describeEachDialect('the dashboard import route', (dialect) => {
  let ctx: TestContext;
  let owner: Browser;
  let workspaceId: string;
  let site: Buffer;
  let heldBefore: string[];
  beforeAll(async () => {
    heldBefore = await uploadsHeld();
    ctx = await buildTestApp(dialect, { env: { QUIRE_IMPORT_MAX_BYTES: String(LIMIT) } });
    ({ owner, workspaceId } = await signedInOwner(ctx));
    site = await zipOf(SITE);
  });
  afterAll(() => ctx?.close());

  const fields = (format: string, dryRun: string): FormPart[] => [
    { name: 'format', data: format },
    { name: 'dryRun', data: dryRun },
  ];
  const upload = (
    browser: Browser,
    parts: FormPart[],
    headers: Record<string, string> = {},
    workspace = workspaceId,
  ) => {
    const { payload, headers: type } = multipart(parts);
    return ctx.app.inject({
      method: 'POST',
      url: `${DASHBOARD}/workspaces/${workspace}/imports`,
      headers: { ...type, cookie: browser.cookie, 'x-csrf-token': browser.csrfToken, ...headers },
      payload,
    });
  };
  const markdownZip = (
    dryRun: boolean,
    { zip = site, filename = 'my-blog.zip', browser = owner, workspace = workspaceId } = {},
  ) =>
    upload(
      browser,
      [...fields('markdown', String(dryRun)), { name: 'file', filename, contentType: 'application/zip', data: zip }],
      {},
      workspace,
    );
  const count = async (table: 'posts' | 'media' | 'tags' | 'import_ledger', workspace = workspaceId) =>
    Number(
      (
        await ctx.runtime.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('workspace_id', '=', workspace)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('streams a dry run’s progress and report as NDJSON, uncompressed, and writes nothing', async () => {
    const answer = await upload(
      owner,
      [...fields('markdown', 'true'), { name: 'file', filename: 'mon-blog-café.zip', data: site }],
      { 'accept-encoding': 'gzip, br' },
    );
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['content-encoding']).toBeUndefined();
    const lines = linesOf(answer.body);
    expect(lines[0]).toEqual({ type: 'progress', done: 0, total: 2 });
    expect(lines.at(-2)).toEqual({ type: 'progress', done: 2, total: 2 });
    expect(lines.filter((line) => line.type !== 'progress')).toHaveLength(1);
    const { report } = lines.at(-1)!;
    expect(report).toMatchObject({ dryRun: true, format: 'markdown', site: 'mon-blog-café', workspaceId });
    expect(report!.counts.post).toEqual({ created: 2 });
    expect(report!.items.map((item) => item.title).sort()).toEqual(['Hello 👋 world', 'שלום עולם — café']);
    for (const table of ['posts', 'media', 'tags', 'import_ledger'] as const) expect(await count(table)).toBe(0);
    await expect
      .poll(async () => (await uploadsHeld()).filter((name) => !heldBefore.includes(name)), { timeout: 2000 })
      .toEqual([]);
  });

  it('imports the posts, their tags and images; the same file again changes nothing', async () => {
    const answer = await markdownZip(false);
    expect(answer.statusCode, answer.body).toBe(200);
    const last = linesOf(answer.body).at(-1)!;
    expect(last.type, answer.body).toBe('report');
    expect(last.report!.dryRun).toBe(false);
    expect(last.report!.counts.post).toEqual({ created: 2 });
    expect(await count('posts')).toBe(2);
    expect(await count('media')).toBe(1);
    expect(await count('tags')).toBe(1);
    const titles = await ctx.runtime.database.db
      .selectFrom('posts')
      .select('title')
      .where('workspace_id', '=', workspaceId)
      .orderBy('title')
      .execute();
    expect(titles.map((row) => row.title)).toEqual(['Hello 👋 world', 'שלום עולם — café']);

    const again = linesOf((await markdownZip(false)).body).at(-1)!;
    expect(again.report!.counts.post).toEqual({ unchanged: 2 });
    expect(await count('posts')).toBe(2);
  });

  it('is the owner’s alone: a member with every permission gets 403 for the dry run and the import', async () => {
    const { workspaceId: other } = await signedInOwner(ctx);
    const member = await signedInMember(ctx, other, ['posts:read', 'posts:write', 'media:write', 'tags:write']);
    for (const dryRun of ['true', 'false']) {
      const answer = await upload(
        member,
        [...fields('markdown', dryRun), { name: 'file', filename: 'site.zip', data: site }],
        {},
        other,
      );
      expect(answer.statusCode, answer.body).toBe(403);
      expect(answer.json()).toMatchObject({
        code: 'FORBIDDEN',
        message: 'Only the owner of this workspace may do this',
      });
    }
    expect(await count('posts', other)).toBe(0);
  });

  it('refuses a write without the CSRF token, and a body that is not multipart', async () => {
    const { payload, headers } = multipart([
      ...fields('markdown', 'true'),
      { name: 'file', filename: 'a.zip', data: site },
    ]);
    const url = `${DASHBOARD}/workspaces/${workspaceId}/imports`;
    const noCsrf = await ctx.app.inject({
      method: 'POST',
      url,
      headers: { ...headers, cookie: owner.cookie },
      payload,
    });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json().details).toEqual({ reason: 'csrf' });
    const json = await ctx.app.inject({
      method: 'POST',
      url,
      headers: { cookie: owner.cookie, 'x-csrf-token': owner.csrfToken },
      payload: { format: 'markdown' },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json().details).toEqual({ reason: 'unsupported_media_type' });
  });

  it('refuses an unknown format or dryRun with the field’s JSON Pointer, before the file is read', async () => {
    const badFormat = await upload(owner, [
      ...fields('joomla', 'true'),
      { name: 'file', filename: 'a.zip', data: site },
    ]);
    expect(badFormat.statusCode).toBe(400);
    expect(badFormat.json().details.issues).toEqual([
      { in: 'body', path: '/format', message: 'must be one of ghost, wordpress, markdown' },
    ]);
    const badDryRun = await upload(owner, [
      ...fields('ghost', 'maybe'),
      { name: 'file', filename: 'a.zip', data: site },
    ]);
    expect(badDryRun.statusCode).toBe(400);
    expect(badDryRun.json().details.issues[0].path).toBe('/dryRun');
    const fileFirst = await upload(owner, [
      { name: 'file', filename: 'a.zip', data: site },
      ...fields('ghost', 'true'),
    ]);
    expect(fileFirst.statusCode).toBe(400);
    expect(fileFirst.json().details.issues[0].path).toBe('/format');
    const noFile = await upload(owner, fields('markdown', 'true'));
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().details.issues[0].path).toBe('/file');
  });

  it('answers 413 past QUIRE_IMPORT_MAX_BYTES, whether the length says so or the bytes do', async () => {
    for (const size of [LIMIT + 1, 4 * LIMIT]) {
      const answer = await markdownZip(true, { zip: Buffer.alloc(size, 1) });
      expect(answer.statusCode, answer.body).toBe(413);
      expect(answer.json()).toMatchObject({ code: 'BAD_REQUEST', details: { reason: 'too_large', maxBytes: LIMIT } });
    }
    const exactly = await markdownZip(true, { zip: Buffer.alloc(LIMIT, 1), filename: 'exactly.zip' });
    expect(exactly.statusCode).toBe(200);
    expect(linesOf(exactly.body).at(-1)!.message).not.toContain(tmpdir());
    expect(linesOf(exactly.body).at(-1)).toMatchObject({
      type: 'error',
      message: expect.stringContaining('exactly.zip'),
    });
  });

  it('ends with an error line naming a zip entry that reaches outside its folder, and writes nothing', async () => {
    const { workspaceId: fresh, owner: freshOwner } = await signedInOwner(ctx);
    const evil = renamed(await zipOf({ ...SITE, 'AAAevil.md': '# Gotcha\n' }), 'AAAevil', '../evil');
    const answer = await markdownZip(false, { zip: evil, filename: 'evil.zip', browser: freshOwner, workspace: fresh });
    expect(answer.statusCode).toBe(200);
    const lines = linesOf(answer.body);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.type).toBe('error');
    expect(lines[0]!.message).toContain('../evil.md');
    expect(lines[0]!.message).not.toMatch(/\n\s+at /);
    expect(lines[0]!.message).not.toContain(tmpdir());
    for (const table of ['posts', 'media', 'tags', 'import_ledger'] as const) expect(await count(table, fresh)).toBe(0);
  });
  it('finishes the import when the client goes away after the first line', async () => {
    const { workspaceId: fresh, owner: freshOwner } = await signedInOwner(ctx);
    const posts = Object.fromEntries(
      Array.from({ length: 40 }, (_, n) => [
        `posts/p${n}.md`,
        `---\ntitle: "Post ${n}"\ndate: 2024-01-01\n---\n\nText.\n`,
      ]),
    );
    const { payload, headers } = multipart([
      ...fields('markdown', 'false'),
      { name: 'file', filename: 'many.zip', data: await zipOf(posts) },
    ]);
    if (!ctx.app.server.listening) await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = ctx.app.server.address() as AddressInfo;
    const first = await new Promise<string>((done, fail) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: `${DASHBOARD}/workspaces/${fresh}/imports`,
          headers: { ...headers, cookie: freshOwner.cookie, 'x-csrf-token': freshOwner.csrfToken },
        },
        (response) => {
          response.once('data', (chunk: Buffer) => {
            request.destroy();
            done(chunk.toString('utf8'));
          });
        },
      );
      request.on('error', () => {});
      request.once('error', fail);
      request.end(payload);
    });
    expect(JSON.parse(first.split('\n')[0]!)).toEqual({ type: 'progress', done: 0, total: 40 });
    await expect.poll(() => count('posts', fresh), { timeout: 8000 }).toBe(40);
    await expect
      .poll(async () => (await uploadsHeld()).filter((name) => !heldBefore.includes(name)), { timeout: 2000 })
      .toEqual([]);
  });
});
