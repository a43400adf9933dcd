import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientTypes } from '../../scripts/client-types.mjs';
import { generateOpenApiDocument } from '../../src/openapi/generate.js';
import { OPERATIONS } from '../../src/openapi/operations.js';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { ROOT } from '../e2e/helpers.js';

type JsonObject = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const run = promisify(execFile);
const CLIENT = path.join(ROOT, 'packages/client');
const METHODS = ['get', 'post', 'patch', 'delete', 'put'];

function operations(document: JsonObject): Array<{ path: string; method: string; operation: JsonObject }> {
  return Object.entries(document.paths as Record<string, JsonObject>).flatMap(([pathName, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({
      path: pathName,
      method,
      operation: item[method] as JsonObject,
    })),
  );
}

// The document does not depend on the database, so this suite runs on SQLite only.
describe('the OpenAPI document', () => {
  let document: JsonObject;
  beforeAll(async () => {
    document = await generateOpenApiDocument();
  });

  it("lints with zero errors under Redocly's recommended rules", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-openapi-lint-'));
    try {
      const file = path.join(dir, 'openapi.json');
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
      const report = JSON.parse(stdout) as {
        totals: { errors: number; warnings: number };
        problems: Array<{ ruleId: string; message: string; severity: string }>;
      };
      const errors = report.problems
        .filter((problem) => problem.severity === 'error')
        .map((problem) => `${problem.ruleId}: ${problem.message}`);
      expect(errors).toEqual([]);
      expect(report.totals.errors).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is what packages/client holds (run `npm run openapi` after changing a route or a schema)', async () => {
    const committed = JSON.parse(fs.readFileSync(path.join(CLIENT, 'openapi.json'), 'utf8')) as JsonObject;
    expect(committed, 'packages/client/openapi.json is stale: run `npm run openapi`').toEqual(document);
    const types = fs.readFileSync(path.join(CLIENT, 'src/schema.d.ts'), 'utf8');
    expect(
      types === (await clientTypes(document)),
      'packages/client/src/schema.d.ts is stale: run `npm run openapi`',
    ).toBe(true);
  });

  it('documents every external operation under its stable operationId, and nothing outside the external API', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: EXTERNAL, description: 'This Quire server' }]);
    const found = operations(document).map(
      ({ path: pathName, method, operation }) => `${method.toUpperCase()} ${pathName} ${operation.operationId}`,
    );
    const expected = Object.entries(OPERATIONS).map(
      ([route, { operationId }]) => `${route.replace(/:(\w+)/g, '{$1}')} ${operationId}`,
    );
    expect(found.sort()).toEqual(expected.sort());
    for (const id of [
      'listPosts',
      'getPost',
      'createPost',
      'updatePost',
      'deletePost',
      'attachPostTags',
      'detachPostTags',
      'uploadMedia',
      'resolveRedirect',
      'reportLinkHealth',
      'revealApiKey',
    ]) {
      expect(
        found.some((line) => line.endsWith(` ${id}`)),
        id,
      ).toBe(true);
    }
    const text = JSON.stringify(document);
    for (const outside of ['/healthz', '/readyz', '/dashboard', '/api/v1/dashboard', '/docs/json'])
      expect(Object.keys(document.paths)).not.toContain(outside);
    expect(text).not.toContain('~kind');
    expect(text).not.toContain('x-quire-');
  });

  it('documents the security scheme, every error status with its code, 304 on content reads and Retry-After on 429', () => {
    expect(document.components.securitySchemes.ApiKey).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
    });
    expect(document.security).toEqual([{ ApiKey: [] }]);
    for (const { method, path: pathName, operation } of operations(document)) {
      const statuses = Object.keys(operation.responses);
      const where = `${method} ${pathName}`;
      expect(
        statuses.filter((status) => status.startsWith('2')),
        where,
      ).toHaveLength(1);
      for (const status of ['400', '401', '429', '500']) expect(statuses, where).toContain(status);
      expect(statuses.includes('304'), where).toBe(
        method === 'get' &&
          !pathName.startsWith('/api-keys') &&
          !pathName.startsWith('/content-keys') &&
          !pathName.startsWith('/webhooks') &&
          // Pending changes move no content version: never cached, never revalidated.
          !pathName.endsWith('/pending') &&
          // Review links are key material.
          !pathName.endsWith('/review-links'),
      );
      // A 403 where one permission guards the route, or where it filters by several (GET /changes).
      const filtering = Object.values(OPERATIONS).some((o) => o.operationId === operation.operationId && o.forbidden);
      expect(statuses.includes('403'), where).toBe(operation['x-permission'] !== undefined || filtering);
      expect(operation.tags, where).toHaveLength(1);
      expect(operation.summary, where).toBeTruthy();
    }
    const { responses } = document.components;
    expect(responses.RateLimited.headers['Retry-After']).toEqual({ $ref: '#/components/headers/RetryAfter' });
    expect(responses.NotFound.content['application/json'].schema.allOf[1]).toEqual({
      type: 'object',
      properties: { code: { const: 'NOT_FOUND' } },
    });
    expect(document.components.schemas.ErrorEnvelope.properties.code.enum).toContain('RATE_LIMITED');
  });

  it('names the resources, maps the block union by its discriminator, and shows examples', () => {
    const { schemas } = document.components;
    for (const name of [
      'Post',
      'Page',
      'Media',
      'Author',
      'Category',
      'Tag',
      'Redirect',
      'LinkHealth',
      'ApiKey',
      'Seo',
      'Block',
      'BlockWrite',
      'PostRevision',
      'PageRevision',
      'RevisionList',
      'ChangesPage',
      'ChangeEvent',
    ])
      expect(schemas[name], name).toBeDefined();
    expect(schemas.Block.discriminator).toEqual({
      propertyName: 'type',
      mapping: expect.objectContaining({ image: '#/components/schemas/ImageBlock' }),
    });
    expect(schemas.BlockWrite.discriminator.mapping.heading).toBe('#/components/schemas/HeadingBlockWrite');
    expect(schemas.Block.oneOf).toHaveLength(13);

    const getPost = document.paths['/posts/{idOrSlug}'].get;
    expect(getPost.responses['200'].content['application/json']).toEqual({
      schema: { $ref: '#/components/schemas/Post' },
      examples: { post: { $ref: '#/components/examples/Post' } },
    });
    expect(
      Object.keys(document.paths['/posts'].post.requestBody.content['application/json'].examples),
    ).not.toHaveLength(0);
    const upload = document.paths['/media'].post.requestBody.content['multipart/form-data'].schema;
    expect(upload).toMatchObject({ required: ['file'], properties: { file: { type: 'string', format: 'binary' } } });
  });
});

describe('serving the document and the reference page', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp('sqlite');
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('answers GET /api/v1/external/openapi.json to any valid key, 401 without one, and the same document at /docs/openapi.json', async () => {
    expect((await ctx.app.inject({ url: `${EXTERNAL}/openapi.json` })).statusCode).toBe(401);
    const { key } = await ctx.memberKey([]);
    const keyed = await ctx.app.inject({ url: `${EXTERNAL}/openapi.json`, headers: { 'x-api-key': key } });
    expect(keyed.statusCode).toBe(200);
    const open = await ctx.app.inject({ url: '/docs/openapi.json' });
    expect(open.statusCode).toBe(200);
    expect(open.json()).toEqual(keyed.json());
    expect(keyed.json()).toEqual(ctx.app.swagger());
    const again = await ctx.app.inject({
      url: `${EXTERNAL}/openapi.json`,
      headers: { 'x-api-key': key, 'if-none-match': keyed.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
  });

  it('serves /docs from its own files: a CSP of self only, and every script and stylesheet answered here', async () => {
    const page = await ctx.app.inject({ url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/https?:|\*|unsafe/);
    expect(page.headers['x-frame-options']).toBe('DENY');

    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(4);
    for (const asset of assets) {
      expect(asset, 'no external URL in the page').toMatch(/^\/docs\//);
      const response = await ctx.app.inject({ url: asset });
      expect(response.statusCode, asset).toBe(200);
      expect(response.body.length, asset).toBeGreaterThan(0);
    }

    // The UI always loads ./json; it is sent on to the public document.
    const json = await ctx.app.inject({ url: '/docs/json' });
    expect(json.statusCode).toBe(308);
    expect(json.headers.location).toBe('/docs/openapi.json');
  });
});
