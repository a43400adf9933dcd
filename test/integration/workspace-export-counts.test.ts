import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { OPERATE_COMMANDS } from '../../src/cli/operate.commands.js';
import { createMediaStorage } from '../../src/modules/media/storage/storage.js';
import { exportWorkspace, type ExportSummary } from '../../src/operate/workspace/export.js';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { fillWorkspace } from '../helpers/operate.js';

/*
 * What `quire export` says it wrote: the live posts and pages counted as such, the soft-deleted ones (which
 * the archive carries, so that an import restores the trash too) named apart, in --json and in words.
 */
describeEachDialect('quire export counts live rows and soft-deleted ones apart', (dialect) => {
  let ctx: TestContext;
  let summary: ExportSummary;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-export-counts-'));

  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    const { workspace, key } = await ctx.ownerKey();
    // Four posts, one of them deleted; two pages, one of them deleted.
    await fillWorkspace(ctx, workspace, key);
    summary = await exportWorkspace({
      database: ctx.runtime.database,
      storage: createMediaStorage(ctx.config),
      workspace: workspace.slug,
      out: path.join(dir, 'counts.tgz'),
    });
  });
  afterAll(async () => {
    await ctx?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('in the --json document', () => {
    expect(summary.rows).toMatchObject({ posts: 3, pages: 1 });
    expect(summary.deleted).toEqual({ posts: 1, pages: 1 });
  });

  it('in the summary it prints', () => {
    const line = (OPERATE_COMMANDS.export!.human as (result: ExportSummary) => string)(summary);
    expect(line).toMatch(/: 3 media, .*, 3 posts, .*, 1 pages, /);
    expect(line).toMatch(/; soft-deleted, in the archive too: 1 posts, 1 pages;/);
  });
});
