import { afterAll, beforeAll, expect, it } from 'vitest';
import { MOVED_TABLES, NOT_MOVED } from '../../src/operate/move/tables.js';
import { ARCHIVED_TABLES, NOT_ARCHIVED, TABLES_NOT_EXPORTED } from '../../src/operate/workspace/tables.js';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';

/*
 * The lists that say what an export and a move carry cover the whole schema: a table or column a migration
 * adds fails here until it is placed (docs/operate.md, "How a table joins the archive").
 */
describeEachDialect('what export and migrate-to carry', (dialect) => {
  let ctx: TestContext;
  let schema: Map<string, string[]>;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    const tables = await ctx.runtime.database.db.introspection.getTables({ withInternalKyselyTables: true });
    // SQLite's FTS5 word indexes are virtual tables with shadow tables of their own (posts_words_data …).
    schema = new Map(
      tables
        .filter((table) => !table.isView && !/_words_/.test(table.name) && !table.name.startsWith('sqlite_'))
        .map((table) => [table.name, table.columns.map((column) => column.name)]),
    );
  });
  afterAll(() => ctx?.close());

  it('migrate-to moves every table but those it names as left behind', () => {
    const placed = [...MOVED_TABLES.map((table) => table.name), ...Object.keys(NOT_MOVED)];
    expect([...schema.keys()].sort()).toEqual(placed.sort());
  });

  it('an export holds every table of a workspace but those it names as left out', () => {
    const placed = [...ARCHIVED_TABLES.map((table) => table.name), ...Object.keys(TABLES_NOT_EXPORTED)];
    const workspaceTables = [...schema.keys()].filter((name) => !name.startsWith('quire_migrations'));
    expect(workspaceTables.sort()).toEqual(placed.sort());
  });

  it('an exported table holds every column but those it names as left out', () => {
    for (const table of ARCHIVED_TABLES) {
      const placed = [...Object.keys(table.columns), ...(NOT_ARCHIVED[table.name] ?? [])];
      expect([table.name, ...schema.get(table.name)!.sort()]).toEqual([table.name, ...placed.sort()]);
    }
  });
});
