import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentClientTypes } from '../../scripts/client-types.mjs';
import { CONTENT_DOCUMENT, registerContentOpenApi } from '../../src/openapi/content-document.js';
import { CONTENT_OPERATIONS } from '../../src/openapi/content-operations.js';
import { generateContentOpenApiDocument, generateOpenApiDocument } from '../../src/openapi/generate.js';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { ROOT } from '../e2e/helpers.js';

type JsonObject = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const run = promisify(execFile);
const CLIENT = path.join(ROOT, 'packages/client');
const CONTENT = '/api/v1/content';

function operations(document: JsonObject): Array<{ path: string; method: string; operation: JsonObject }> {
  return Object.entries(document.paths as Record<string, JsonObject>).flatMap(([pathName, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path: pathName, method, operation: operation as JsonObject })),
  );
}

// The document does not depend on the database, so this suite runs on SQLite only.
describe("the content API's OpenAPI document", () => {
  let document: JsonObject;
  beforeAll(async () => {
    document = await generateContentOpenApiDocument();
  });

  it("lints with zero errors and zero warnings under Redocly's recommended rules", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-content-openapi-lint-'));
    try {
      const file = path.join(dir, 'content-openapi.json');
      fs.writeFileSync(file, JSON.stringify(document));
      const cli = path.join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');
      const { stdout } = await run(
        process.execPath,
        [cli, 'lint', file, '--config', path.join(ROOT, 'redocly.yaml'), '--format=json'],
        {
          cwd: ROOT,
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
          maxBuffer: 16 * 1024 * 1024,
        },
      ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
      const report = JSON.parse(stdout) as { problems: Array<{ ruleId: string; message: string }> };
      expect(report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is what packages/client holds (run `npm run openapi` after changing a content route or a schema)', async () => {
    const committed = JSON.parse(fs.readFileSync(path.join(CLIENT, 'content-openapi.json'), 'utf8')) as JsonObject;
    expect(committed, 'packages/client/content-openapi.json is stale: run `npm run openapi`').toEqual(document);
    const types = fs.readFileSync(path.join(CLIENT, 'src/content-schema.d.ts'), 'utf8');
    expect(
      types === (await contentClientTypes(document)),
      'packages/client/src/content-schema.d.ts is stale: run `npm run openapi`',
    ).toBe(true);
  });

  it('documents every content route under its operationId, and nothing of the other APIs', async () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: CONTENT, description: 'This Quire server' }]);
    const found = operations(document).map(
      ({ path: pathName, method, operation }) => `${method.toUpperCase()} ${pathName} ${operation.operationId}`,
    );
    const expected = Object.entries(CONTENT_OPERATIONS).map(
      ([route, { operationId }]) => `${route.replace(/:(\w+)/g, '{$1}')} ${operationId}`,
    );
    expect(found.sort()).toEqual(expected.sort());
    for (const outside of ['/openapi.json', '/content-keys', '/webhooks'])
      expect(Object.keys(document.paths)).not.toContain(outside);
    const text = JSON.stringify(document);
    expect(text).not.toContain('x-quire-');
    expect(text).not.toContain('~kind');
    // The external document holds none of the content routes.
    const external = await generateOpenApiDocument();
    expect(JSON.stringify(external.paths)).not.toContain('getPostPreview');
  });

  it('takes the key as the query security scheme, and documents the caching and CORS headers and the errors', () => {
    expect(document.components.securitySchemes).toEqual({
      ContentKey: expect.objectContaining({ type: 'apiKey', in: 'query', name: 'key' }),
    });
    expect(document.security).toEqual([{ ContentKey: [] }]);
    for (const { method, path: pathName, operation } of operations(document)) {
      const where = `${method} ${pathName}`;
      expect(method, where).toBe('get');
      expect(
        (operation.parameters ?? []).map((parameter: JsonObject) => parameter.name),
        where,
      ).not.toContain('key');
      const statuses = Object.keys(operation.responses);
      for (const status of ['200', '400', '401', '429', '500']) expect(statuses, where).toContain(status);
      expect(statuses.includes('404'), where).toBe(pathName.includes('{'));
      expect(statuses, where).not.toContain('403');
      // Never kept by any cache: no ETag to revalidate, no surrogate keys.
      const noStore = pathName.startsWith('/preview/') || pathName === '/changes';
      expect(statuses.includes('304'), where).toBe(!noStore);
      const headers = Object.keys(operation.responses['200'].headers);
      expect(headers, where).toEqual(expect.arrayContaining(['Cache-Control', 'Access-Control-Allow-Origin']));
      expect(
        headers.includes('Surrogate-Key') && headers.includes('Cache-Tag') && headers.includes('ETag'),
        where,
      ).toBe(!noStore);
      expect(operation.summary, where).toBeTruthy();
    }
    expect(document.paths['/posts/{idOrSlug}'].get.description).toMatch(/Published only/);
    expect(document.info.description).toMatch(/Surrogate-Key/);
    expect(document.paths['/media/{id}'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/PublicMedia',
    });
    expect(document.paths['/changes'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ContentChangesPage',
    });
    expect(document.components.schemas.ContentChangesPage.required).toContain('head');
    // Only what the operations reach: no write bodies of the admin API.
    expect(Object.keys(document.components.schemas)).toEqual(expect.arrayContaining(['Post', 'Page', 'ErrorEnvelope']));
    expect(document.components.schemas.PostCreateBody).toBeUndefined();
    expect(document.components.responses.Forbidden).toBeUndefined();
  });

  it('refuses a content route that has no entry in content-operations.ts', async () => {
    const app = Fastify();
    await registerContentOpenApi(app);
    app.get(`${CONTENT}/unnamed`, () => ({}));
    await app.ready();
    expect(() => (app as unknown as Record<string, () => unknown>)[CONTENT_DOCUMENT]!()).toThrow(
      /GET \/unnamed has no entry in src\/openapi\/content-operations\.ts/,
    );
    await app.close();
  });
});

describe('serving the content document', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp('sqlite');
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('answers GET /api/v1/content/openapi.json without a key, to any origin, with an ETag', async () => {
    const open = await ctx.app.inject({ url: `${CONTENT}/openapi.json`, headers: { origin: 'https://site.example' } });
    expect(open.statusCode).toBe(200);
    expect(open.headers['content-type']).toMatch(/^application\/json/);
    expect(open.headers['access-control-allow-origin']).toBe('*');
    expect(open.json()).toEqual(await generateContentOpenApiDocument());
    const again = await ctx.app.inject({
      url: `${CONTENT}/openapi.json`,
      headers: { 'if-none-match': open.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('leaves the scope as it was: another method is still 401 without a key and 403 with one', async () => {
    expect((await ctx.app.inject({ method: 'POST', url: `${CONTENT}/openapi.json` })).statusCode).toBe(401);
    const { key: adminKey } = await ctx.ownerKey();
    const created = await ctx.app.inject({
      method: 'POST',
      url: `${EXTERNAL}/content-keys`,
      headers: { 'x-api-key': adminKey },
      payload: { name: 'Site' },
    });
    const key = created.json<{ key: string }>().key;
    // A content key writes nothing: any method but GET and HEAD is refused as such, whatever the path.
    const wrong = await ctx.app.inject({ method: 'DELETE', url: `${CONTENT}/openapi.json?key=${key}` });
    expect(wrong.statusCode).toBe(403);
    expect((await ctx.app.inject({ url: `${CONTENT}/posts` })).statusCode).toBe(401);
    expect((await ctx.app.inject({ url: `${CONTENT}/nothing-here?key=${key}` })).statusCode).toBe(404);
  });
});
