import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { seedWorkspacesCommand, parseWorkspaceCount, type SeededWorkspace } from '../../src/seed/workspaces.js';
import { buildTestApp, EXTERNAL, type TestContext, type TestUser } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';

describeEachDialect('quire seed workspaces', (dialect) => {
  let ctx: TestContext;
  let owner: TestUser;
  let seeded: SeededWorkspace[];

  const workspaceCount = async () =>
    Number(
      (
        await ctx.runtime.database.db
          .selectFrom('workspaces')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .executeTakeFirstOrThrow()
      ).count,
    );
  const refusal = (work: Promise<unknown>) =>
    work.then(
      () => {
        throw new Error('expected a refusal');
      },
      (error: unknown) => {
        expect(error).toBeInstanceOf(AppError);
        return (error as AppError).message;
      },
    );

  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    owner = await ctx.createUser('tenants@example.com');
    seeded = await seedWorkspacesCommand(ctx.runtime, { count: 3, posts: 4, owner: owner.email, name: 'Tenant' });
  });
  afterAll(() => ctx?.close());

  it('makes each workspace with its own key and its own posts, and a key sees only its own', async () => {
    expect(seeded.map((workspace) => workspace.slug)).toEqual(['tenant-1', 'tenant-2', 'tenant-3']);
    const postIds = new Map<string, string[]>();
    for (const workspace of seeded) {
      const rows = await ctx.runtime.database.db
        .selectFrom('posts')
        .select('id')
        .where('workspace_id', '=', workspace.id)
        .execute();
      expect(rows).toHaveLength(4);
      postIds.set(
        workspace.id,
        rows.map((row) => row.id),
      );
    }
    for (const workspace of seeded) {
      const response = await ctx.app.inject({
        method: 'GET',
        url: `${EXTERNAL}/posts?pageSize=100`,
        headers: { 'x-api-key': workspace.key },
      });
      expect(response.statusCode, response.body).toBe(200);
      const listed = response.json<{ data: Array<{ id: string }> }>().data.map((post) => post.id);
      expect(listed.length).toBeGreaterThan(0);
      for (const id of listed) expect(postIds.get(workspace.id)).toContain(id);
    }
    const keys = await ctx.runtime.database.db
      .selectFrom('api_keys')
      .select(['workspace_id', 'name'])
      .where(
        'workspace_id',
        'in',
        seeded.map((workspace) => workspace.id),
      )
      .execute();
    expect(keys.map((key) => key.name)).toEqual(['seed', 'seed', 'seed']);
    expect(new Set(keys.map((key) => key.workspace_id)).size).toBe(3);
  });

  // SQLite keeps no planner statistics to refresh (its dialect's analyze does nothing), so this runs on PostgreSQL.
  it.runIf(dialect === 'postgres')(
    'leaves the planner statistics of the seeded tables fresh, as one seed does',
    async () => {
      // The statistics views are written by each backend a moment after its work, so they are polled.
      let analyzed: unknown = null;
      for (let tries = 0; tries < 50 && analyzed === null; tries += 1) {
        const { rows } = await sql<{
          last_analyze: string | null;
        }>`select last_analyze from pg_stat_user_tables where relname = 'posts'`.execute(ctx.runtime.database.db);
        analyzed = rows[0]?.last_analyze ?? null;
        if (analyzed === null) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(analyzed).not.toBeNull();
    },
  );

  it('refuses a missing owner, a name too long or too many posts in all, and makes nothing', async () => {
    const before = await workspaceCount();
    expect(
      await refusal(seedWorkspacesCommand(ctx.runtime, { count: 2, posts: 1, owner: 'nobody@example.com', name: 'X' })),
    ).toMatch(/nobody@example.com not found/);
    expect(
      await refusal(
        seedWorkspacesCommand(ctx.runtime, { count: 10, posts: 1, owner: owner.email, name: 'n'.repeat(98) }),
      ),
    ).toMatch(/1 to 100 characters/);
    expect(
      await refusal(seedWorkspacesCommand(ctx.runtime, { count: 1_001, posts: 1_000, owner: owner.email, name: 'X' })),
    ).toBe('--count × --posts must be at most 1000000 posts in all, got 1001000');
    expect(await workspaceCount()).toBe(before);
  });

  it('takes a count from 1 to 10,000 and refuses anything else', () => {
    expect(parseWorkspaceCount('1')).toBe(1);
    expect(parseWorkspaceCount(' 10000 ')).toBe(10_000);
    for (const raw of ['0', '10001', '-3', '2.5', 'many', '', true, undefined])
      expect(() => parseWorkspaceCount(raw)).toThrow(/--count must be a whole number from 1 to 10000/);
  });
});
