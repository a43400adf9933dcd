import crypto from 'node:crypto';
import type { Compilable } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dueQuery, type PassOver } from '../../src/modules/webhooks/dispatch/deliveries.repository.js';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { queryPlan } from '../helpers/query-plan.js';

const ids = (count: number) => Array.from({ length: count }, () => crypto.randomUUID());
const PASS_OVER: Record<string, PassOver> = {
  nobody: { workspaces: [], endpoints: [] },
  'workspaces at their share': { workspaces: ids(3), endpoints: [] },
  'endpoints at their share': { workspaces: [], endpoints: ids(8) },
  both: { workspaces: ids(4), endpoints: ids(16) },
};

/**
 * The claim reads its candidates by walking the partial index of pending deliveries in due order, whatever
 * workspaces and endpoints it passes over for holding their share: never a scan of the deliveries, whose history
 * is kept for the retention period, and never a sort. PostgreSQL is asked with sequential scans and sorts
 * disabled, which proves the index serves the order.
 */
describeEachDialect('the webhook claim (query plan)', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
  });
  afterAll(() => ctx?.close());

  const plan = (query: Compilable<unknown>) => queryPlan(ctx.runtime.database.db, dialect, query);

  it('walks the due index, whatever it passes over', async () => {
    const failures: string[] = [];
    const now = new Date().toISOString();
    for (const [name, passOver] of Object.entries(PASS_OVER)) {
      const details = await plan(dueQuery(ctx.runtime.database.db, ctx.runtime.database.dialect, now, 64, passOver));
      const bad =
        dialect === 'sqlite'
          ? /^SCAN due\b|USE TEMP B-TREE/m.test(details) ||
            !/^SEARCH due USING INDEX webhook_deliveries_due_idx \(next_attempt_at<\?\)/m.test(details)
          : /Seq Scan on webhook_deliveries|Sort\b/.test(details) ||
            !/Index Scan using webhook_deliveries_due_idx on webhook_deliveries due/.test(details);
      if (bad) failures.push(`${name}:\n${details}`);
    }
    expect(failures.join('\n\n')).toBe('');
  });
});
