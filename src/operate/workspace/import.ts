import { Readable } from 'node:stream';
import type { DatabaseHandle } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { insertOwnedWorkspace } from '../../modules/accounts/accounts.service.js';
import type { MediaStorage } from '../../modules/media/storage/storage.js';
import { workspacesRepository, type SettingsColumns } from '../../modules/workspaces/workspaces.repository.js';
import { insertRows } from '../../db/insert-rows.js';
import { nowIso } from '../../shared/time.js';
import { commandLine, type Change } from '../../writes/changes.js';
import { contentWrite } from '../../writes/content-write.js';
import { silentProgress, type Progress } from '../progress.js';
import { openArchive } from '../archive/reader.js';
import { planImport, type ImportOptions, type ImportPlan } from './import-plan.js';
import { storedIds } from './import-target.js';
import { decodeRow } from './rows.js';
import { ARCHIVED_TABLES, archivedTable, SETTINGS_COLUMNS, SETTINGS_TABLE, type ArchivedTable } from './tables.js';

type Row = Record<string, unknown>;

/** Post rows per insert statement: some 25 kB each. */
const POSTS_PER_STATEMENT = 200;

export interface ImportSummary {
  plan: ImportPlan;
  dryRun: boolean;
  seconds: number;
}

interface Written {
  workspaceCreated: boolean;
  /** Ids of the rows written, per table with a one-column key (the others go with their post). */
  rows: Map<string, string[]>;
  files: string[];
  previousSettings: SettingsColumns | null;
}

/**
 * `quire import`: checks the whole archive and plans (planImport), then, unless it is a dry run, reads it
 * again and writes. Rows go through contentWrite, a chunk of the archive per transaction, so every row
 * written records its content event and moves the workspace's versions, as a write through the API would.
 * A failure on the way (a disk, the database, a slug a concurrent write took) takes back what this run had
 * written, rows and files, before it is reported: nothing is left half-imported.
 */
export async function importWorkspace(
  database: DatabaseHandle,
  storage: Pick<MediaStorage, 'put' | 'delete'>,
  options: ImportOptions & { dryRun?: boolean; progress?: Progress },
): Promise<ImportSummary> {
  const started = performance.now();
  const progress = options.progress ?? silentProgress;
  const plan = await planImport(database, options, progress);
  if (!options.dryRun) {
    const written: Written = { workspaceCreated: false, rows: new Map(), files: [], previousSettings: null };
    try {
      await writeArchive(database, storage, plan, written, progress);
    } catch (error) {
      progress.abandon();
      await undo(database, storage, plan, written);
      throw error;
    }
    await database.dialect.analyze(database.db, ['posts', 'post_tags', 'related_posts']);
  }
  return { plan, dryRun: options.dryRun === true, seconds: Math.round(performance.now() - started) / 1000 };
}

async function writeArchive(
  database: DatabaseHandle,
  storage: Pick<MediaStorage, 'put'>,
  plan: ImportPlan,
  written: Written,
  progress: Progress,
): Promise<void> {
  const { target } = plan;
  if (!target.exists) {
    await database.db
      .transaction()
      .execute((trx) =>
        insertOwnedWorkspace(trx, target.name, target.ownerUserId, { id: target.id, slug: target.slug }),
      );
    written.workspaceCreated = true;
  }
  const archive = await openArchive(plan.file, 'quire-workspace');
  const total = Object.values(plan.tables).reduce((sum, counts) => sum + counts.rows, 0);
  let done = 0;
  // The rows the workspace has already, by table: the rows that belong to them are left as they are.
  const present = new Map<string, Set<string>>();
  // A chunk of media rows is written once the files after it are stored: a row never names a missing file.
  let pendingMedia = new Map<string, Row>();
  const flushMedia = async () => {
    if (pendingMedia.size > 0)
      await insertChunk(database, archivedTable('media')!, [...pendingMedia.values()], target.id, written);
    pendingMedia = new Map();
  };
  progress.start(`import into ${target.slug}`, total, 'rows');
  try {
    for await (const entry of archive.entries) {
      if (entry.kind === 'file') {
        const [, id] = /^files\/([^/]+)\//.exec(entry.name) ?? [];
        const row = pendingMedia.get(id ?? '');
        if (!row) continue; // a file of a media row the workspace already has
        const key = `${target.id}/${String(row.id)}/${String(row.filename)}`;
        await storage.put(key, Readable.from(entry.chunks), { contentType: String(row.mime_type) });
        written.files.push(key);
        continue;
      }
      await flushMedia();
      if (entry.table === SETTINGS_TABLE) {
        if (plan.settings === 'apply') await applySettings(database, target.id, entry.rows[0]!, written);
        continue;
      }
      const table = archivedTable(entry.table);
      if (!table) continue; // a newer minor version's table, named in the plan
      done += entry.rows.length;
      let rows = entry.rows;
      if (table.key.length === 1) {
        const stored = await storedIds(
          database.db,
          table,
          rows.map((row) => String(row.id)),
        );
        const kept = present.get(table.name) ?? new Set<string>();
        for (const id of stored.keys()) kept.add(id);
        present.set(table.name, kept);
        rows = rows.filter((row) => !stored.has(String(row.id)));
      } else {
        const owner = table.belongsTo!;
        rows = rows.filter((row) => !present.get(owner.table)?.has(String(row[owner.column])));
      }
      if (table.name === 'media') pendingMedia = new Map(rows.map((row) => [String(row.id), row]));
      else await insertChunk(database, table, rows, target.id, written);
      progress.update(done);
    }
    await flushMedia();
  } finally {
    archive.close();
  }
  progress.end();
}

/** One chunk of a table in one transaction, with a created event for each row that is a resource. */
async function insertChunk(
  database: DatabaseHandle,
  table: ArchivedTable,
  rows: Row[],
  workspaceId: string,
  written: Written,
) {
  if (rows.length === 0) return;
  await contentWrite(database, commandLine(workspaceId), async ({ trx, changed }) => {
    const decoded = rows.map((row) => decodeRow(table, row, workspaceId));
    for (const [column, referenced] of Object.entries(table.installationReferences ?? {})) {
      const ids = [...new Set(decoded.map((row) => row[column]).filter((id): id is string => typeof id === 'string'))];
      const here =
        ids.length === 0
          ? new Set<string>()
          : new Set((await trx.selectFrom(referenced).select('id').where('id', 'in', ids).execute()).map((r) => r.id));
      for (const row of decoded) if (typeof row[column] === 'string' && !here.has(row[column])) row[column] = null;
    }
    await insertRows(
      trx,
      database.dialect.name,
      table.name as keyof Database & string,
      decoded as never,
      table.name === 'posts' ? POSTS_PER_STATEMENT : 1000,
    );
    if (table.resource) {
      const { type, slug } = table.resource;
      for (const row of rows) {
        // The archive brings the revisions of its posts and pages (their own tables), numbered as they were.
        const created = { id: String(row.id), slug: slug ? (row[slug] as string) : null, revision: false } as const;
        // What is published in the archive goes live here with the import, as any post created published.
        if (type === 'post' || type === 'page')
          changed({ ...created, type, action: 'created', status: String(row.status) });
        else changed({ ...created, type, action: 'created' });
      }
    }
  });
  if (table.key.length === 1) {
    const ids = written.rows.get(table.name) ?? [];
    for (const row of rows) ids.push(String(row.id));
    written.rows.set(table.name, ids);
  }
}

async function applySettings(database: DatabaseHandle, workspaceId: string, row: Row, written: Written) {
  const columns = Object.fromEntries(
    SETTINGS_COLUMNS.map((column) => [column, (row[column] as string | null) ?? null]),
  );
  await contentWrite(database, commandLine(workspaceId), async ({ trx, changed }) => {
    const current = await trx
      .selectFrom('workspaces')
      .selectAll()
      .where('id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    written.previousSettings = Object.fromEntries(SETTINGS_COLUMNS.map((column) => [column, current[column]]));
    await workspacesRepository.updateSettings(trx, workspaceId, columns, nowIso());
    changed({ type: 'settings', id: workspaceId, slug: null, action: 'updated' });
  });
}

/** Takes back what a failed import wrote: the workspace it made, else its rows (newest table first) and settings. */
async function undo(
  database: DatabaseHandle,
  storage: Pick<MediaStorage, 'delete'>,
  plan: ImportPlan,
  written: Written,
) {
  const workspaceId = plan.target.id;
  await Promise.all(written.files.map((key) => storage.delete(key).catch(() => undefined)));
  if (written.workspaceCreated) {
    // Every row of a workspace goes with it (foreign keys on delete cascade), its events included.
    await database.db.deleteFrom('workspaces').where('id', '=', workspaceId).execute();
    return;
  }
  for (const table of [...ARCHIVED_TABLES].reverse()) {
    const ids = written.rows.get(table.name) ?? [];
    for (let end = ids.length; end > 0; end -= 500) {
      const batch = ids.slice(Math.max(0, end - 500), end);
      await contentWrite(database, commandLine(workspaceId), async ({ trx, changed }) => {
        await trx
          .deleteFrom(table.name as 'posts')
          .where('id', 'in', batch)
          .execute();
        for (const id of batch)
          if (table.resource)
            changed({ type: table.resource.type, id, slug: null, action: 'deleted' } satisfies Change);
      });
    }
  }
  if (written.previousSettings) {
    const previous = written.previousSettings;
    await contentWrite(database, commandLine(workspaceId), async ({ trx, changed }) => {
      await workspacesRepository.updateSettings(trx, workspaceId, previous, nowIso());
      changed({ type: 'settings', id: workspaceId, slug: null, action: 'updated' });
    });
  }
}
