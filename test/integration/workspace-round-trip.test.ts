import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DialectName } from '../../src/db/dialects/dialect.js';
import { createMediaStorage } from '../../src/modules/media/storage/storage.js';
import { exportWorkspace } from '../../src/operate/workspace/export.js';
import { importWorkspace } from '../../src/operate/workspace/import.js';
import { buildTestApp, type TestContext, type TestWorkspace } from '../helpers/app.js';
import { fillWorkspace, readEverything } from '../helpers/operate.js';
import { services } from '../helpers/services.js';

/*
 * Issue 25: a workspace exported from one installation and imported into another, on the other dialect,
 * answers every external read of every resource with the same JSON: ids, slugs, dates, bodies, scores,
 * embeds, media files and URLs, site settings. The uploader of a media item names a user and a key of the
 * first installation, which no archive carries; those two fields are left out of the comparison.
 */
const PAIRS: Array<[DialectName, DialectName]> = [
  ['sqlite', 'postgres'],
  ['postgres', 'sqlite'],
];

for (const [from, to] of PAIRS) {
  const skipped = !services.postgresUrl;
  const title = `a workspace exported from ${from} and imported into ${to}`;
  (skipped ? describe.skip : describe)(
    skipped ? `${title} [skipped: QUIRE_TEST_DATABASE_URL is not set]` : title,
    () => {
      let source: TestContext;
      let target: TestContext;
      let workspace: TestWorkspace;
      let sourceKey: string;
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-round-trip-'));
      const file = path.join(dir, 'workspace.quire.tgz');

      beforeAll(async () => {
        source = await buildTestApp(from);
        target = await buildTestApp(to);
        ({ workspace, key: sourceKey } = await source.ownerKey());
        await fillWorkspace(source, workspace, sourceKey);
      });
      afterAll(async () => {
        await source?.close();
        await target?.close();
        fs.rmSync(dir, { recursive: true, force: true });
      });

      it('answers every read of every resource with the same JSON after the import', async () => {
        const before = await readEverything(source, sourceKey);
        const exported = await exportWorkspace({
          database: source.runtime.database,
          storage: createMediaStorage(source.config),
          workspace: workspace.slug,
          out: file,
        });
        // The deleted post and page are in the archive too, counted apart.
        expect(exported.rows).toMatchObject({ media: 3, authors: 2, categories: 3, tags: 3, posts: 3, pages: 1 });
        expect(exported.deleted).toEqual({ posts: 1, pages: 1 });
        expect(exported.files).toBe(3);

        const owner = await target.createUser();
        const imported = await importWorkspace(target.runtime.database, createMediaStorage(target.config), {
          file,
          owner: owner.email,
        });
        expect(imported.plan.target).toMatchObject({ id: workspace.id, slug: workspace.slug, exists: false });
        const { key } = await target.createKey({ id: workspace.id, slug: workspace.slug, owner }, owner);
        const after = await readEverything(target, key);
        expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
        expect(after).toEqual(before);
      });

      it('records a created event for every resource it wrote, as writes through the API do', async () => {
        const events = await target.runtime.database.db
          .selectFrom('content_events')
          .select(['resource_type', 'action'])
          .where('workspace_id', '=', workspace.id)
          .execute();
        const created = (type: string) =>
          events.filter((e) => e.resource_type === type && e.action === 'created').length;
        expect([created('media'), created('author'), created('category'), created('tag'), created('post')]).toEqual([
          3, 2, 3, 3, 4,
        ]);
        expect([created('page'), created('redirect')]).toEqual([2, 2]);
        expect(events.filter((e) => e.resource_type === 'settings')).toHaveLength(1);
      });

      it('records a published event after the created one of each post and page published in the archive', async () => {
        const db = target.runtime.database.db;
        const events = await db
          .selectFrom('content_events')
          .select(['seq', 'resource_type', 'resource_id', 'action'])
          .where('workspace_id', '=', workspace.id)
          .where('action', 'in', ['created', 'published'])
          .where('resource_type', 'in', ['post', 'page'])
          .orderBy('seq')
          .execute();
        const live = async (table: 'posts' | 'pages') =>
          (
            await db
              .selectFrom(table)
              .select('id')
              .where('workspace_id', '=', workspace.id)
              .where('status', '=', 'published')
              .execute()
          ).map((row) => row.id);
        const published = [...(await live('posts')), ...(await live('pages'))];
        expect(published.length).toBeGreaterThan(1);
        const actions = (id: string) => events.filter((e) => e.resource_id === id).map((e) => e.action);
        for (const id of published) expect(actions(id), id).toEqual(['created', 'published']);
        expect(events.filter((e) => e.action === 'published')).toHaveLength(published.length);
      });
    },
  );
}
