import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { workspaceFingerprint } from '../helpers/fingerprint.js';
import { filePart, multipart, png, type FormPart } from '../helpers/media.js';
import {
  hostileValue,
  jsonText,
  operationsOf,
  requestArb,
  type FuzzRequest,
  type OpenApiDocument,
} from '../helpers/openapi-arbitraries.js';

/*
 * The fuzz probe (issue 20): requests drawn from the served OpenAPI document's request schemas, valid and
 * mutated, over every operation, under the owner's key. Every answer must be below 500 and, when an
 * error, the envelope; a refused write must leave the workspace exactly as it was. The contract check
 * (helpers/contract.ts) also holds every answer to the document.
 */

const RUNS_PER_DIALECT = 1200;
/** The runs read a fingerprint of the workspace around every write: slow beside other suites on a small machine. */
const FUZZ_TIMEOUT_MS = 120_000;

describeEachDialect('fuzz: requests from the OpenAPI document, valid and hostile', (dialect) => {
  let ctx: TestContext;
  let key: string;
  let workspaceId: string;
  let document: OpenApiDocument;
  const known = new Map<string, string[]>();

  beforeAll(async () => {
    // The limit would answer 429 long before the runs end; it has tests of its own.
    ctx = await buildTestApp(dialect, { env: { QUIRE_RATE_LIMIT_MAX: '1000000000' } });
    const owner = await ctx.ownerKey();
    ({ key } = owner);
    workspaceId = owner.workspace.id;
    // A second key of the owner's for the api-keys routes, so no run can revoke or expire the one in use.
    const spare = await ctx.createKey(owner.workspace, owner.workspace.owner, { name: 'spare' });
    document = (await ctx.app.inject({ method: 'GET', url: '/docs/openapi.json' })).json() as OpenApiDocument;

    const create = async (url: string, payload: unknown) => {
      const response = await ctx.app.inject({
        method: 'POST',
        url: `${EXTERNAL}${url}`,
        headers: { 'x-api-key': key },
        payload: payload as Record<string, unknown>,
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json() as { id: string; slug?: string };
    };
    const ids = (row: { id: string; slug?: string }) => [row.id, ...(row.slug ? [row.slug] : [])];
    const upload = multipart([filePart(png(2, 2), 'fixture.png')]);
    const media = (
      await ctx.app.inject({
        method: 'POST',
        url: `${EXTERNAL}/media`,
        headers: { ...upload.headers, 'x-api-key': key },
        payload: upload.payload,
      })
    ).json() as { id: string };
    const post = await create('/posts', { title: 'Fixture post', bodyJson: [{ type: 'image', mediaId: media.id }] });
    known.set('/posts/{idOrSlug}', ids(post));
    known.set('/posts/{idOrSlug}/tags', ids(post));
    known.set('/pages/{idOrSlug}', ids(await create('/pages', { title: 'Fixture page' })));
    known.set('/authors/{idOrSlug}', ids(await create('/authors', { displayName: 'Fixture author' })));
    known.set('/categories/{idOrSlug}', ids(await create('/categories', { name: 'Fixture category' })));
    known.set('/tags/{idOrSlug}', ids(await create('/tags', { name: 'Fixture tag' })));
    known.set('/redirects/{id}', [(await create('/redirects', { fromPath: '/old', toPath: '/new' })).id]);
    known.set('/media/{id}', [media.id]);
    for (const path of ['/api-keys/{id}', '/api-keys/{id}/reveal', '/api-keys/{id}/revoke'])
      known.set(path, [spare.id]);
    const webhook = await create('/webhooks', { url: 'https://hooks.example.com/fuzz' });
    for (const path of ['', '/reveal-secret', '/rotate-secret', '/test', '/deliveries'])
      known.set(`/webhooks/{id}${path}`, [webhook.id]);
  });
  afterAll(() => ctx?.close());

  const urlOf = (request: FuzzRequest) => {
    // Every byte percent-encoded: encodeURIComponent throws on a lone surrogate, which UTF-8 turns into U+FFFD.
    const path = request.operation.path.replace(/\{(\w+)\}/g, (_match, name: string) =>
      [...Buffer.from(request.pathValues[name] ?? '')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join(''),
    );
    const search = new URLSearchParams(request.query).toString();
    return `${EXTERNAL}${path}${search ? `?${search}` : ''}`;
  };

  /** A media upload's parts: a file, or none, or two, and text fields that may be hostile. */
  const uploadParts = fc
    .record({
      files: fc.integer({ min: 0, max: 2 }),
      alt: fc.option(
        fc.oneof(
          fc.string(),
          hostileValue.map((value) => (typeof value === 'string' ? value : '1')),
        ),
      ),
      bytes: fc.oneof(
        fc.constant(png(3, 3)),
        fc.uint8Array({ maxLength: 64 }).map((data) => Buffer.from(data)),
      ),
    })
    .map(({ files, alt, bytes }): FormPart[] => [
      ...Array.from({ length: files }, () => filePart(bytes, 'fuzz.png')),
      ...(alt === null ? [] : [{ name: 'alt', data: alt }]),
    ]);

  it(
    'no answer is a 500, every error is the envelope, and a refused write changes nothing',
    async () => {
      const operations = operationsOf(document).filter((operation) => operation.path !== '/openapi.json');
      const arbitrary = fc.oneof(
        ...operations.map((operation) =>
          operation.multipart
            ? uploadParts.map((parts) => ({ operation, parts }))
            : requestArb(document, operation, (path) => known.get(path) ?? []).map((request) => ({
                operation,
                request,
              })),
        ),
      );
      const counts = { requests: 0, writes: 0, refusedWrites: 0, byStatus: {} as Record<string, number> };
      const covered = new Set<string>();

      await fc.assert(
        fc.asyncProperty(arbitrary, async (drawn) => {
          const { operation } = drawn;
          const write = operation.method !== 'GET';
          const before = write ? await workspaceFingerprint(ctx.runtime.database.db, workspaceId) : '';
          let response;
          if ('parts' in drawn) {
            const form = multipart(drawn.parts);
            response = await ctx.app.inject({
              method: 'POST',
              url: `${EXTERNAL}/media`,
              headers: { ...form.headers, 'x-api-key': key },
              payload: form.payload,
            });
          } else {
            const { request } = drawn;
            const hasBody = request.body !== undefined;
            response = await ctx.app.inject({
              method: operation.method as 'GET',
              url: urlOf(request),
              headers: {
                'x-api-key': key,
                ...(hasBody ? { 'content-type': request.wrongContentType ? 'text/xml' : 'application/json' } : {}),
              },
              ...(hasBody ? { payload: jsonText(request.body) } : {}),
            });
          }
          counts.requests += 1;
          counts.byStatus[response.statusCode] = (counts.byStatus[response.statusCode] ?? 0) + 1;
          covered.add(`${operation.method} ${operation.path}`);
          const what = `${operation.method} ${operation.path} → ${response.statusCode} ${response.body.slice(0, 300)}`;
          expect(response.statusCode, what).toBeLessThan(500);
          if (response.statusCode >= 400) {
            const body = response.json() as Record<string, unknown>;
            expect(typeof body.code, what).toBe('string');
            expect(typeof body.message, what).toBe('string');
            expect('details' in body, what).toBe(true);
          }
          if (write) {
            counts.writes += 1;
            if (response.statusCode >= 400) {
              counts.refusedWrites += 1;
              expect(await workspaceFingerprint(ctx.runtime.database.db, workspaceId), what).toBe(before);
            }
          }
        }),
        { numRuns: RUNS_PER_DIALECT, endOnFailure: true },
      );

      expect(covered.size).toBe(operations.length);
      // The counts the closing note of issue 20 quotes from one CI run.
      process.stdout.write(
        `fuzz [${dialect}]: ${counts.requests} requests over ${covered.size} operations, ${counts.writes} writes ` +
          `(${counts.refusedWrites} refused, each checked unchanged); statuses ${JSON.stringify(counts.byStatus)}` +
          '\n',
      );
    },
    FUZZ_TIMEOUT_MS,
  );
});
