import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compilePending } from '../../src/http/deferred-compile.js';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';

// Route validators and serializers compile on first use; this compiles every one of them now, so a
// schema that ajv or fast-json-stringify refuses fails here instead of on a first request.
describe('route schemas', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp('sqlite');
  });
  afterAll(() => ctx.close());

  it('all compile', async () => {
    const { key } = await ctx.ownerKey();
    const before = await ctx.app.inject({
      method: 'GET',
      url: `${EXTERNAL}/tags?pageSize=0`,
      headers: { 'x-api-key': key },
    });
    expect(before.statusCode).toBe(400);
    // Every route has at least a validator or a serializer; most have several.
    expect(compilePending()).toBeGreaterThan(100);
    const after = await ctx.app.inject({
      method: 'GET',
      url: `${EXTERNAL}/tags?pageSize=0`,
      headers: { 'x-api-key': key },
    });
    expect(after.json()).toEqual(before.json());
  });
});
