import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestContext } from '../helpers/app.js';

const TABLES = ['media', 'tags', 'authors', 'categories'] as const;

// SQLite only: PostgreSQL plans from statistics, and with them takes the primary key.
describe('ids looked up within a workspace [sqlite]', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp('sqlite');
  });
  afterAll(() => ctx?.close());

  // How embeds and reference checks load rows: `workspace_id = ? and id in (…)`. Before migration 0009,
  // SQLite walked the workspace's rows by another index from four ids on.
  it.each(TABLES)('%s: every id is a lookup of its own, for 1 to 40 ids (query plan)', async (table) => {
    const db = ctx.runtime.database.db;
    for (const count of [1, 4, 10, 40]) {
      const ids = Array.from({ length: count }, () => crypto.randomUUID());
      const query = db
        .selectFrom(table)
        .selectAll()
        .where('workspace_id', '=', crypto.randomUUID())
        .where('id', 'in', ids)
        .compile();
      const plan = await db.executeQuery<{ detail: string }>({
        ...query,
        sql: `explain query plan ${query.sql}`,
      } as never);
      const details = plan.rows.map((row) => row.detail).join('\n');
      // By the primary key or by (workspace_id, id): either way a lookup per id, never a walk of the workspace.
      expect(details, `${count} ids`).toMatch(
        new RegExp(
          `^SEARCH ${table} USING INDEX (sqlite_autoindex_${table}_1 \\(id=\\?\\)|${table}_workspace_id_idx \\(workspace_id=\\? AND id=\\?\\))$`,
        ),
      );
    }
  });
});
