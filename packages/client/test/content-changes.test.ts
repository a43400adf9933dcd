import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerProcess } from '../../../test/e2e/helpers.js';
import { Quire, QuireContent, QuireError, type ContentChangesPage } from '../src/index.js';
import { countingFetch, seededServer } from './helpers.js';

/*
 * The content client's change feed against a real `quire serve` (the compiled server): what a static site's build
 * does to rebuild only what changed, with the admin client writing what it should (not) hear of.
 */

describe('QuireContent.changes against a real server', () => {
  let server: ServerProcess;
  let remove: () => void;
  let admin: Quire;
  let contentKey: string;
  let content: QuireContent;

  beforeAll(async () => {
    const seeded = await seededServer(3);
    server = seeded.server;
    remove = seeded.dir.remove;
    admin = new Quire({ apiKey: seeded.key, baseUrl: server.url });
    const response = await fetch(`${server.url}/api/v1/external/content-keys`, {
      method: 'POST',
      headers: { 'x-api-key': seeded.key, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Site' }),
    });
    contentKey = ((await response.json()) as { key: string }).key;
    content = new QuireContent({ contentKey, baseUrl: server.url });
  }, 90_000);
  afterAll(async () => {
    await server?.stop().catch(() => undefined);
    remove?.();
  });

  it('reads everything, then follows from head: a new tag and a publication, never a draft', async () => {
    // A build that has just read all the content stands at the end of the feed with one request.
    const { head, data } = await content.changes.list({ limit: 1 });
    expect(data).toHaveLength(1);

    const draft = await admin.posts.create({ title: 'Unannounced' });
    await admin.posts.update(draft.id, { excerpt: 'Still a secret' });
    const tag = await admin.tags.create({ name: 'Announcements' });
    const live = await admin.posts.create({ title: 'Announced', status: 'published' });

    const page: ContentChangesPage = await content.changes.list({ after: head });
    expect(page.data.map((change) => [change.event, change.id, change.slug])).toEqual([
      ['tag.created', tag.id, tag.slug],
      ['post.created', live.id, live.slug],
      ['post.published', live.id, live.slug],
    ]);
    expect(page.hasMore).toBe(false);
    expect(page.next).toBe(page.head);

    await admin.posts.update(live.id, { status: 'archived' });
    const withdrawn = await content.changes.list({ after: page.next });
    expect(withdrawn.data.map((change) => [change.event, change.id, change.slug])).toEqual([
      ['post.archived', live.id, null],
    ]);
  });

  it('pages with limit and hasMore, and asks afresh each time: no ETag, no 304', async () => {
    const counting = countingFetch();
    const watched = new QuireContent({ contentKey, baseUrl: server.url, fetch: counting.fetch });
    const whole = await watched.changes.list({ limit: 1000 });
    const pieces = [];
    let after: string | undefined;
    for (let round = 0; round < 100; round += 1) {
      const page = await watched.changes.list({ after, limit: 2 });
      pieces.push(...page.data);
      after = page.next;
      if (!page.hasMore) break;
    }
    expect(pieces).toEqual(whole.data);
    expect(after).toBe(whole.head);
    await watched.changes.list({ limit: 1000 });
    expect(counting.statuses.every((status) => status === 200)).toBe(true);
    expect(counting.ifNoneMatch.every((value) => value === null)).toBe(true);
  });

  it('refuses a cursor it did not give with a QuireError naming /after', async () => {
    const refused = await content.changes.list({ after: 'not-a-cursor' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(QuireError);
    expect(refused).toMatchObject({ code: 'BAD_REQUEST', status: 400, details: { issues: [{ path: '/after' }] } });
  });
});
