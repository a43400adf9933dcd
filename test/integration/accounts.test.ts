import { afterAll, beforeAll, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { COMMAND_LINE } from '../../src/audit/audit-log.js';

describeEachDialect('accounts under concurrency', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
  });
  afterAll(() => ctx?.close());

  it('workspaces of one name created at once all succeed, each with its own slug', async () => {
    const owner = await ctx.createUser();
    const created = await Promise.all(
      Array.from({ length: 6 }, () => ctx.runtime.services.accounts.createWorkspace('Same Name', owner.email)),
    );
    expect(new Set(created.map((w) => w.slug)).size).toBe(6);
    expect(created.map((w) => w.slug).sort()).toEqual([
      'same-name',
      'same-name-2',
      'same-name-3',
      'same-name-4',
      'same-name-5',
      'same-name-6',
    ]);
  });

  it('the same member added twice at once: one succeeds, the other is a 409, never a 500', async () => {
    const workspace = await ctx.createWorkspace();
    const user = await ctx.createUser();
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, () =>
        ctx.runtime.services.accounts.addMember(workspace.id, user.email, ['posts:read'], COMMAND_LINE),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const result of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')) {
      expect(result.reason).toBeInstanceOf(AppError);
      expect((result.reason as AppError).status).toBe(409);
    }
  });
});
