import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';

const WRITERS = 20;

/** Each resource with a derived slug, and the body that names it. */
const RESOURCES: Array<[string, (name: string) => Record<string, unknown>]> = [
  ['posts', (name) => ({ title: name })],
  ['pages', (name) => ({ title: name })],
  ['authors', (name) => ({ displayName: name })],
  ['categories', (name) => ({ name })],
  ['tags', (name) => ({ name })],
];

describeEachDialect('slugs under concurrency', (dialect) => {
  let ctx: TestContext;
  let key: string;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    ({ key } = await ctx.ownerKey());
  });
  afterAll(() => ctx?.close());

  const create = (resource: string, body: Record<string, unknown>) =>
    ctx.app.inject({ method: 'POST', url: `${EXTERNAL}/${resource}`, headers: { 'x-api-key': key }, payload: body });

  for (const [resource, body] of RESOURCES) {
    it(`${resource}: ${WRITERS} creates of one name at once each take the next free suffix`, async () => {
      const name = `Race for ${resource}`;
      const answers = await Promise.all(Array.from({ length: WRITERS }, () => create(resource, body(name))));
      expect(answers.map((answer) => answer.statusCode)).toEqual(Array(WRITERS).fill(201));
      const slugs = answers.map((answer) => (answer.json() as { slug: string }).slug).sort();
      const base = `race-for-${resource}`;
      const expected = [base, ...Array.from({ length: WRITERS - 1 }, (_, i) => `${base}-${i + 2}`)].sort();
      expect(slugs).toEqual(expected);
    });

    it(`${resource}: ${WRITERS} creates of one explicit slug at once: one 201, the rest 409 naming the slug`, async () => {
      const slug = `taken-${resource}`;
      const answers = await Promise.all(
        Array.from({ length: WRITERS }, (_, i) => create(resource, { ...body(`Explicit ${i}`), slug })),
      );
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect(statuses).toEqual([201, ...Array(WRITERS - 1).fill(409)]);
      for (const answer of answers.filter((one) => one.statusCode === 409))
        expect(answer.json()).toMatchObject({ code: 'CONFLICT' });
    });
  }
});
