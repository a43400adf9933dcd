import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { contractObserver } from '../helpers/contract.js';
// The list the setup file reads after each test, so these cases also show the observer records into it.
import { takeContractMismatches } from '../helpers/contract-mismatches.js';

/*
 * The contract check itself: answers that break the OpenAPI document must be reported. Every other
 * suite relies on it passing quietly, so this one makes sure it is not quiet by accident.
 */

const TAG = {
  id: '35eaa3e4-3405-49a0-a163-a4923320b75c',
  workspaceId: '07c9f1d4-ab5e-43e7-a0e4-5da0e7276b4e',
  slug: 'typescript',
  name: 'TypeScript',
  seo: null,
  createdAt: '2026-01-02T03:04:05.678Z',
};
const COMMON_HEADERS = {
  'x-request-id': 'r1',
  'x-content-type-options': 'nosniff',
  'ratelimit-limit': '10',
  'ratelimit-remaining': '9',
  'ratelimit-reset': '60',
};
const CACHE_HEADERS = { etag: '"e"', 'cache-control': 'private, no-cache' };

describe('the contract check', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp('sqlite');
  });
  afterAll(async () => {
    await ctx?.close();
  });

  /** What the check reports for one answer of GET /tags/{idOrSlug}. */
  function mismatches(
    status: number,
    body: unknown,
    headers: Record<string, string> = { ...COMMON_HEADERS, ...CACHE_HEADERS },
  ): string[] {
    const request = {
      method: 'GET',
      url: `${EXTERNAL}/tags/typescript`,
      routeOptions: { url: `${EXTERNAL}/tags/:idOrSlug` },
    };
    const reply = { statusCode: status, getHeader: (name: string) => headers[name.toLowerCase()] };
    contractObserver(() => ctx.app)(
      request as unknown as FastifyRequest,
      reply as unknown as FastifyReply,
      body === undefined ? '' : JSON.stringify(body),
    );
    return takeContractMismatches();
  }

  it('passes an answer the document describes', () => {
    expect(mismatches(200, TAG)).toEqual([]);
    expect(mismatches(404, { code: 'NOT_FOUND', message: 'Tag not found', details: null }, COMMON_HEADERS)).toEqual([]);
    expect(
      mismatches(304, undefined, { 'x-request-id': 'r1', 'x-content-type-options': 'nosniff', etag: '"e"' }),
    ).toEqual([]);
  });

  it('reports a missing field, a wrong type, a null where none is allowed, and a bad format', () => {
    const { name: _name, ...nameless } = TAG;
    expect(mismatches(200, nameless)).toEqual([expect.stringContaining("must have required property 'name'")]);
    expect(mismatches(200, { ...TAG, name: 42 })).toEqual([expect.stringContaining('body/name must be string')]);
    expect(mismatches(200, { ...TAG, createdAt: null })).toEqual([
      expect.stringContaining('body/createdAt must be string'),
    ]);
    expect(mismatches(200, { ...TAG, id: 'not-a-uuid' })).toEqual([
      expect.stringContaining('body/id must match format "uuid"'),
    ]);
  });

  it('reports an undocumented status, an error code that does not belong to the status, a missing header and a stray body', () => {
    expect(mismatches(409, { code: 'CONFLICT', message: 'x', details: null }, COMMON_HEADERS)).toEqual([
      expect.stringContaining('status 409 is not documented'),
    ]);
    expect(mismatches(404, { code: 'FORBIDDEN', message: 'x', details: null }, COMMON_HEADERS)).toEqual([
      expect.stringContaining('body/code must be equal to constant'),
    ]);
    expect(mismatches(429, { code: 'RATE_LIMITED', message: 'x', details: null }, COMMON_HEADERS)).toEqual([
      expect.stringContaining('header Retry-After is missing'),
    ]);
    expect(mismatches(304, TAG, { 'x-request-id': 'r1', 'x-content-type-options': 'nosniff', etag: '"e"' })).toEqual([
      expect.stringContaining('a body was sent'),
    ]);
  });
});
