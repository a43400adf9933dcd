import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { MediaStorage } from '../../src/modules/media/storage/storage.js';
import { createMediaStorage } from '../../src/modules/media/storage/storage.js';
import { FORMAT_VERSION, formatVersion } from '../../src/operate/archive/format.js';
import { exportWorkspace } from '../../src/operate/workspace/export.js';
import { importWorkspace } from '../../src/operate/workspace/import.js';
import { buildTestApp, type TestContext, type TestWorkspace } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { workspaceFingerprint } from '../helpers/fingerprint.js';
import { fillWorkspace, rewriteArchive } from '../helpers/operate.js';

/*
 * Imports that must not happen, or must happen once: each refusal leaves the installation as it was (no
 * workspace made, no row, no file), and a second run of an import adds nothing.
 */
describeEachDialect('quire import refuses what it cannot import whole', (dialect) => {
  let ctx: TestContext;
  /** Another installation, where the archive's ids are new. */
  let other: TestContext;
  let source: TestWorkspace;
  let storage: MediaStorage;
  let otherStorage: MediaStorage;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-import-'));
  const file = path.join(dir, 'source.tgz');
  const variant = (name: string) => path.join(dir, name);

  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    other = await buildTestApp(dialect);
    storage = createMediaStorage(ctx.config);
    otherStorage = createMediaStorage(other.config);
    const { workspace, key } = await ctx.ownerKey();
    source = workspace;
    await fillWorkspace(ctx, workspace, key);
    await exportWorkspace({ database: ctx.runtime.database, storage, workspace: workspace.slug, out: file });
  });
  afterAll(async () => {
    await ctx?.close();
    await other?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const workspaceCount = async (installation = other) =>
    Number(
      (
        await installation.runtime.database.db
          .selectFrom('workspaces')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  // Files only: local storage keeps a workspace's folder once made (another upload may be landing in it).
  const mediaFiles = () =>
    fs
      .readdirSync(path.join(other.config.dataDir, 'media'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name));
  const importInto = (workspace: string, options: { file?: string; merge?: boolean; dryRun?: boolean } = {}) =>
    importWorkspace(ctx.runtime.database, storage, { file: options.file ?? file, workspace, ...options });
  const importElsewhere = (workspace: string, options: { file?: string; dryRun?: boolean } = {}) =>
    importWorkspace(other.runtime.database, otherStorage, { file: options.file ?? file, workspace, ...options });

  it('into an empty workspace: a dry run says what it would write and writes nothing', async () => {
    const empty = await other.createWorkspace();
    const before = await workspaceFingerprint(other.runtime.database.db, empty.id);
    const { plan, dryRun } = await importElsewhere(empty.slug, { dryRun: true });
    expect(dryRun).toBe(true);
    expect(plan.target).toMatchObject({ id: empty.id, exists: true });
    expect(plan.tables.posts).toEqual({ rows: 4, create: 4, present: 0 });
    expect(plan.files).toEqual({ create: 3, present: 0 });
    expect(plan.settings).toBe('apply');
    expect(await workspaceFingerprint(other.runtime.database.db, empty.id)).toBe(before);
  });

  it('refuses the archive of a workspace whose ids this installation already holds', async () => {
    const empty = await ctx.createWorkspace();
    await expect(importInto(empty.slug)).rejects.toThrow(
      /already exists in another workspace of this installation: ids are kept/,
    );
    // Damage is what an archive is refused for first, even when its rows would conflict too.
    const bytes = fs.readFileSync(file);
    fs.writeFileSync(variant('cut-here.tgz'), bytes.subarray(0, bytes.length - 200));
    await expect(importInto(empty.slug, { file: variant('cut-here.tgz') })).rejects.toThrow(/is damaged/);
  });

  it('refuses a workspace that is not empty without --merge, and adds nothing twice with it', async () => {
    const before = await workspaceFingerprint(ctx.runtime.database.db, source.id);
    await expect(importInto(source.slug)).rejects.toThrow(
      new RegExp(`Workspace ${source.slug} is not empty \\(3 media, 2 authors, 3 categories, 3 tags, 4 posts`),
    );
    const { plan } = await importInto(source.slug, { merge: true });
    expect(plan.tables.posts).toEqual({ rows: 4, create: 0, present: 4 });
    expect(plan.tables.post_tags).toMatchObject({ create: 0 });
    expect(plan.settings).toBe('keep');
    expect(await workspaceFingerprint(ctx.runtime.database.db, source.id)).toBe(before);
  });

  it('refuses a modified archive, a truncated one and a newer major version, writing nothing', async () => {
    const target = await other.createWorkspace();
    const fingerprint = () => workspaceFingerprint(other.runtime.database.db, target.id);
    const before = [await fingerprint(), await workspaceCount(), mediaFiles()];
    const bytes = fs.readFileSync(file);
    fs.writeFileSync(variant('cut.tgz'), bytes.subarray(0, bytes.length - 200));
    await expect(importElsewhere(target.slug, { file: variant('cut.tgz') })).rejects.toThrow(
      /damaged: .*truncated|ends early/,
    );

    // One byte of a post's title changed in the decompressed archive, the checksums left as written.
    const { archiveEntries, writeArchiveEntries } = await import('../helpers/operate.js');
    const entries = await archiveEntries(file);
    const edited = entries.map((e) =>
      e.name.startsWith('tables/posts/')
        ? { ...e, body: Buffer.from(e.body.toString().replace('Notes on', 'Notes in')) }
        : e,
    );
    await writeArchiveEntries(variant('edited.tgz'), edited);
    await expect(importElsewhere(target.slug, { file: variant('edited.tgz') })).rejects.toThrow(
      /tables\/posts\/000001\.ndjson does not match the checksum it was written with \(modified\)/,
    );

    // Checksums recomputed, but a post naming an author the archive does not hold.
    await rewriteArchive(file, variant('dangling.tgz'), (all) =>
      all.map((e) =>
        e.name.startsWith('tables/posts/')
          ? {
              ...e,
              body: Buffer.from(
                e.body
                  .toString()
                  .replace(/"author_id":"[0-9a-f-]{36}"/, '"author_id":"00000000-0000-4000-8000-000000000000"'),
              ),
            }
          : e,
      ),
    );
    await expect(importElsewhere(target.slug, { file: variant('dangling.tgz') })).rejects.toThrow(
      /row \d+ of posts names a row of authors \(00000000-0000-4000-8000-000000000000\) that the archive does not hold/,
    );

    await rewriteArchive(file, variant('major.tgz'), (all) =>
      all.map((e) =>
        e.name === 'quire-archive.json'
          ? { ...e, body: Buffer.from(e.body.toString().replace(`"${formatVersion('quire-workspace')}"`, '"2.0"')) }
          : e,
      ),
    );
    await expect(importElsewhere(target.slug, { file: variant('major.tgz') })).rejects.toThrow(
      /is format 2\.0, written by a newer Quire .*; this Quire reads 1\.x: upgrade it first/,
    );
    expect([await fingerprint(), await workspaceCount(), mediaFiles()]).toEqual(before);
  });

  it('imports a newer minor version, skipping the tables and columns it has no place for, and says which', async () => {
    await rewriteArchive(file, variant('minor.tgz'), (all) => [
      ...all.map((e) => {
        if (e.name === 'quire-archive.json')
          return {
            ...e,
            body: Buffer.from(
              e.body
                .toString()
                .replace(`"${formatVersion('quire-workspace')}"`, `"1.${FORMAT_VERSION['quire-workspace'].minor + 1}"`),
            ),
          };
        if (e.name.startsWith('tables/tags/'))
          return { ...e, body: Buffer.from(e.body.toString().replace(/\{"id"/g, '{"color":"red","id"')) };
        return e;
      }),
      { name: 'tables/post_comments/000001.ndjson', body: Buffer.from('{"id":"x"}\n') },
    ]);
    const { plan } = await importInto(source.slug, { file: variant('minor.tgz'), merge: true, dryRun: true });
    expect(plan.skipped).toEqual({ tables: ['post_comments'], columns: ['tags.color'] });
  });

  it('takes back every row and file when it fails half-way', async () => {
    const target = await other.createWorkspace();
    const fingerprint = () => workspaceFingerprint(other.runtime.database.db, target.id);
    const rows = async () =>
      Number(
        (
          await other.runtime.database.db
            .selectFrom('media')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('workspace_id', '=', target.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = [await rows(), mediaFiles()];
    let puts = 0;
    const failing: MediaStorage = {
      ...otherStorage,
      put: async (key, body, options) => {
        puts += 1;
        // The second chunk's first file: the first chunk's rows and files are written by then.
        if (puts === 2) throw new Error('disk full');
        return otherStorage.put(key, body, options);
      },
    };
    await expect(importWorkspace(other.runtime.database, failing, { file, workspace: target.slug })).rejects.toThrow(
      'disk full',
    );
    expect([await rows(), mediaFiles()]).toEqual(before);

    // A failure after the media, authors, categories, tags and posts are written (the display, here).
    let steps = 0;
    let writing = false;
    const progress = {
      start: (label: string) => void (writing = label.startsWith('import')),
      end() {},
      abandon() {},
      update() {
        if (writing && (steps += 1) === 5) throw new Error('stdout closed');
      },
    };
    const unchanged = await fingerprint();
    await expect(
      importWorkspace(other.runtime.database, otherStorage, { file, workspace: target.slug, progress }),
    ).rejects.toThrow('stdout closed');
    expect([await rows(), mediaFiles()]).toEqual(before);
    const events = await other.runtime.database.db
      .selectFrom('content_events')
      .select('action')
      .where('workspace_id', '=', target.id)
      .where('resource_type', '=', 'post')
      .execute();
    // What was written and taken back is in the history, as writes and deletes through the API would be.
    expect(events.filter((e) => e.action === 'created')).toHaveLength(4);
    expect(events.filter((e) => e.action === 'deleted')).toHaveLength(4);
    expect(await fingerprint()).not.toBe(unchanged);
    // And with the disk back, the same import goes through.
    const { plan } = await importWorkspace(other.runtime.database, otherStorage, { file, workspace: target.slug });
    expect(plan.target).toMatchObject({ id: target.id, exists: true });
    expect(await rows()).toBe(3);
    expect(await fingerprint()).not.toBe('');
  });
});
