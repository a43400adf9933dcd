import crypto from 'node:crypto';
import type { Compilable } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { postListCountQuery, postListIdsQuery, type PostFilter } from '../../src/modules/posts/read/post-handles.js';
import { POST_SORT_KEYS, type PostSortKey } from '../../src/modules/posts/posts.schemas.js';
import type { PageRequest } from '../../src/shared/paging.js';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { queryPlan } from '../helpers/query-plan.js';

/** Each filter of the specification alone, and none; the ids are any, as a plan does not depend on them. */
const FILTERS: Record<string, PostFilter> = {
  none: {},
  status: { status: 'published' },
  categoryId: { categoryId: crypto.randomUUID() },
  'categoryId=': { categoryId: null },
  authorId: { authorId: crypto.randomUUID() },
  tagId: { tagId: crypto.randomUUID() },
  dateFrom: { dateFrom: '2026-01-01T00:00:00.000Z' },
  dateTo: { dateTo: '2026-06-01T00:00:00.000Z' },
  'dateFrom+dateTo': { dateFrom: '2026-01-01T00:00:00.000Z', dateTo: '2026-06-01T00:00:00.000Z' },
};

/** No orderBy (newest first), and each sort key in both directions. */
const ORDERS: Array<Pick<PageRequest<PostSortKey>, 'orderBy' | 'order'>> = [
  { orderBy: undefined, order: 'desc' },
  ...POST_SORT_KEYS.flatMap((orderBy) => (['asc', 'desc'] as const).map((order) => ({ orderBy, order }))),
];

/**
 * Every list shape of GET /posts (each sort key in both directions, with each filter and with none) finds its
 * page by walking an index of the workspace in the page's order: never a scan of every post, never a sort of
 * the workspace's rows. SQLite plans without statistics, as it runs in production, and must find each id in the
 * index alone (a post's row holds its body before the columns the list reads); PostgreSQL is asked with
 * sequential scans and sorts disabled, which proves an index can serve each order (the planner with
 * statistics picks among such plans by the data, docs/performance.md).
 */
describeEachDialect('list shapes of GET /posts (query plan)', (dialect) => {
  let ctx: TestContext;
  let workspaceId: string;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    workspaceId = (await ctx.ownerKey()).workspace.id;
  });
  afterAll(() => ctx?.close());

  const plan = (query: Compilable<unknown>) => queryPlan(ctx.runtime.database.db, dialect, query);

  const shapes = Object.entries(FILTERS).flatMap(([filterName, filter]) =>
    ORDERS.map((order) => ({ name: `${filterName}, ${order.orderBy ?? '(none)'} ${order.order}`, filter, order })),
  );

  it(`each of ${shapes.length} shapes walks an index in the page's order`, async () => {
    const failures: string[] = [];
    for (const { name, filter, order } of shapes) {
      const query = postListIdsQuery(ctx.runtime.database.db, ctx.runtime.database.dialect, workspaceId, filter, {
        page: 3,
        pageSize: 10,
        ...order,
      });
      const details = await plan(query);
      const bad =
        dialect === 'sqlite'
          ? /^SCAN posts\b|USE TEMP B-TREE/m.test(details) ||
            !/^SEARCH posts USING COVERING INDEX \S+ \(workspace_id=\?/m.test(details)
          : /Seq Scan|Sort\b/.test(details) || !/Index (Only )?Scan( Backward)? using \S+ on posts/.test(details);
      if (bad) failures.push(`${name}:\n${details}`);
    }
    expect(failures.join('\n\n')).toBe('');
  });

  it('the count of each filter is a range of an index too', async () => {
    const failures: string[] = [];
    for (const [name, filter] of Object.entries(FILTERS)) {
      const details = await plan(
        postListCountQuery(ctx.runtime.database.db, ctx.runtime.database.dialect, workspaceId, filter),
      );
      const bad =
        dialect === 'sqlite'
          ? /^SCAN posts\b|USE TEMP B-TREE/m.test(details) ||
            !/^SEARCH posts USING COVERING INDEX \S+ \(workspace_id=\?/m.test(details)
          : /Seq Scan/.test(details);
      if (bad) failures.push(`${name}:\n${details}`);
    }
    expect(failures.join('\n\n')).toBe('');
  });
});
