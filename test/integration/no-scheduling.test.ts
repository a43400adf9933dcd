import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import type { Response } from '../helpers/posts.js';
import { expectIssue } from '../helpers/posts.js';

/*
 * v1 has no scheduling: a post or page saved published with a publishedAt in the future would be live at
 * once (and a post would sort first among published ones). Such a write is a 400 naming /publishedAt;
 * rows stored before the rule are served and edited as they are until a write sets their status or date.
 */

const LATER = '2030-01-01T00:00:00.000Z';
const EARLIER = '2024-05-01T08:00:00.000Z';
const NO_SCHEDULING = /^v1 has no scheduling: a published (post|page) cannot have a publishedAt later than now/;

describeEachDialect('no accidental future', (dialect) => {
  let ctx: TestContext;
  let key: string;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    ({ key } = await ctx.ownerKey());
  });
  afterAll(() => ctx?.close());

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    ctx.app.inject({
      method,
      url: `${EXTERNAL}${url}`,
      headers: { 'x-api-key': key },
      ...(payload === undefined ? {} : { payload }),
    });
  const ok = (response: Response, status = 200) => {
    expect(response.statusCode, response.body).toBe(status);
    return response.json() as { id: string; status: string; publishedAt: string | null; title: string };
  };
  const refused = (response: Response) => {
    const issue = expectIssue(response, '/publishedAt', NO_SCHEDULING);
    expect((response.json() as { message: string }).message).toBe(issue.message);
  };

  for (const [kind, path] of [
    ['post', '/posts'],
    ['page', '/pages'],
  ] as const) {
    describe(`${kind}s`, () => {
      it(`refuses to create a published ${kind} dated in the future, and creates nothing`, async () => {
        const before = ok(await call('GET', `${path}?status=published`)) as unknown as { total: number };
        refused(await call('POST', path, { title: `Tomorrow's ${kind}`, status: 'published', publishedAt: LATER }));
        const after = ok(await call('GET', `${path}?status=published`)) as unknown as { total: number };
        expect(after.total).toBe(before.total);
        const dated = ok(
          await call('POST', path, { title: `Dated ${kind}`, status: 'published', publishedAt: EARLIER }),
          201,
        );
        expect(dated).toMatchObject({ status: 'published', publishedAt: EARLIER });
      });

      it(`keeps a draft ${kind}'s future date, and refuses to publish it until the date is moved`, async () => {
        const draft = ok(await call('POST', path, { title: `Planned ${kind}`, publishedAt: LATER }), 201);
        expect(draft).toMatchObject({ status: 'draft', publishedAt: LATER });
        refused(await call('PATCH', `${path}/${draft.id}`, { status: 'published' }));
        expect(ok(await call('GET', `${path}/${draft.id}`))).toMatchObject({ status: 'draft', publishedAt: LATER });
        expect(
          ok(await call('PATCH', `${path}/${draft.id}`, { status: 'published', publishedAt: EARLIER })),
        ).toMatchObject({
          status: 'published',
          publishedAt: EARLIER,
        });
        refused(await call('PATCH', `${path}/${draft.id}`, { publishedAt: LATER }));
      });

      it(`leaves a published ${kind} dated in the future by an earlier version as it is`, async () => {
        const stored = ok(await call('POST', path, { title: `Old ${kind}`, status: 'published' }), 201);
        const table = kind === 'post' ? 'posts' : 'pages';
        await ctx.runtime.database.db
          .updateTable(table)
          .set({ published_at: LATER })
          .where('id', '=', stored.id)
          .execute();

        expect(ok(await call('GET', `${path}/${stored.id}`))).toMatchObject({
          status: 'published',
          publishedAt: LATER,
        });
        expect(ok(await call('PATCH', `${path}/${stored.id}`, { title: `Old ${kind}, edited` }))).toMatchObject({
          title: `Old ${kind}, edited`,
          status: 'published',
          publishedAt: LATER,
        });
        refused(await call('PATCH', `${path}/${stored.id}`, { status: 'published' }));
        expect(ok(await call('PATCH', `${path}/${stored.id}`, { status: 'draft' }))).toMatchObject({
          status: 'draft',
          publishedAt: LATER,
        });
      });
    });
  }
});
