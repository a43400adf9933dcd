import crypto from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventsBetweenQuery, type EventFilter } from '../../src/writes/content-events.repository.js';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { queryPlan } from '../helpers/query-plan.js';

/** The admin feed for a key that reads everything, for one that reads some types, and the content feed. */
const FILTERS: Record<string, EventFilter> = {
  'every type': {},
  'some types': { types: ['post', 'tag', 'settings'] },
  'published only': { published: true },
};

/**
 * A page of the change feed walks the workspace's events in order on (workspace_id, seq), never sorting them or
 * scanning another table; the content feed looks up each post's and page's status by its primary key, per
 * event, never walking a workspace's posts nor hashing every workspace's. SQLite plans without statistics, as it
 * runs in production; PostgreSQL is asked with sequential scans and sorts disabled, which proves an index can
 * serve each part.
 */
describeEachDialect('a page of the change feed (query plan)', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
  });
  afterAll(() => ctx?.close());

  it('walks (workspace_id, seq) in order, and finds each post or page by its key', async () => {
    const failures: string[] = [];
    for (const [name, filter] of Object.entries(FILTERS)) {
      const db = ctx.runtime.database.db;
      const details = await queryPlan(db, dialect, eventsBetweenQuery(db, crypto.randomUUID(), 10, 1000, filter, 101));
      const lines = details.split('\n');
      const bad =
        dialect === 'sqlite'
          ? /^SCAN |USE TEMP B-TREE/m.test(details) ||
            !/^SEARCH content_events USING INDEX content_events_workspace_seq_idx \(workspace_id=\? AND seq>\? AND seq<\?\)$/m.test(
              details,
            ) ||
            lines.some((line) => /^SEARCH (posts|pages) /.test(line) && !/ INDEX \S+ \(id=\?\)$/.test(line))
          : /Seq Scan|Sort\b|hashed SubPlan/.test(details) ||
            !/Index Scan using content_events_workspace_seq_idx on content_events\b/.test(details) ||
            lines.some(
              (line, n) =>
                /Scan .* on (posts|pages)\b/.test(line) &&
                !/Index Cond: \(id = content_events\.resource_id\)$/.test(lines[n + 1] ?? ''),
            );
      if (bad) failures.push(`${name}:\n${details}`);
    }
    expect(failures.join('\n\n')).toBe('');
  });
});
