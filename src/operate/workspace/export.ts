import path from 'node:path';
import { COMMAND_LINE, recordAudit } from '../../audit/audit-log.js';
import type { Kysely } from 'kysely';
import { DERIVED_FIELDS_VERSION } from '../../blocks/derive.js';
import type { DatabaseHandle } from '../../db/database.js';
import { keysetPages, untyped, type Row } from '../../db/keyset.js';
import type { Database } from '../../db/schema.js';
import { readSnapshot } from '../../db/snapshot.js';
import { notFound } from '../../errors.js';
import type { MediaStorage } from '../../modules/media/storage/storage.js';
import { workspacesRepository } from '../../modules/workspaces/workspaces.repository.js';
import { silentProgress, type Progress } from '../progress.js';
import { formatVersion } from '../archive/format.js';
import { ArchiveWriter } from '../archive/writer.js';
import { quireRelease } from '../release.js';
import { encodeRowLine } from './rows.js';
import { ARCHIVED_TABLES, SETTINGS_COLUMNS, SETTINGS_TABLE, type ArchivedTable } from './tables.js';

/** Rows read per query; a post is some 25 kB with its body, so fewer of them. */
const PAGE_ROWS = 500;
const POSTS_PER_PAGE = 100;

export interface ExportOptions {
  database: DatabaseHandle;
  storage: Pick<MediaStorage, 'get'>;
  /** Workspace id or slug. */
  workspace: string;
  out: string;
  progress?: Progress;
}

export interface ExportSummary {
  workspace: { id: string; slug: string; name: string };
  file: string;
  bytes: number;
  /** Rows written per table; of posts and pages the live ones only (`deleted` counts the others). */
  rows: Record<string, number>;
  /** Soft-deleted posts and pages: in the archive too (an import brings back the trash), counted apart. */
  deleted: Record<string, number>;
  files: number;
  /** Media rows whose file was not in storage (deleted while the export ran, or lost before). */
  missingFiles: number;
  seconds: number;
}

/** A table's rows, parents before their children when the table references itself. */
async function* tablePages(db: Kysely<Database>, table: ArchivedTable, workspaceId: string): AsyncGenerator<Row[]> {
  if (table.orderBy !== 'parents-first') {
    // The archived columns only (media's storage path besides): not the search copies of the text.
    const columns = [...Object.keys(table.columns), ...(table.name === 'media' ? ['storage_path'] : [])];
    const size = table.name === 'posts' ? POSTS_PER_PAGE : PAGE_ROWS;
    yield* keysetPages(db, table.name, table.key, size, { workspaceId, columns });
    return;
  }
  // Category trees are small: ordered in memory, each parent before its children (a cycle cannot be stored).
  const rows = await untyped(db)
    .selectFrom(table.name)
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .orderBy('id')
    .execute();
  const placed = new Set<unknown>();
  const ordered: Row[] = [];
  let pending = rows;
  while (pending.length > 0) {
    const ready = pending.filter((row) => row.parent_id === null || placed.has(row.parent_id));
    if (ready.length === 0) {
      ordered.push(...pending);
      break;
    }
    for (const row of ready) placed.add(row.id);
    ordered.push(...ready);
    pending = pending.filter((row) => !placed.has(row.id));
  }
  for (let start = 0; start < ordered.length; start += PAGE_ROWS) yield ordered.slice(start, start + PAGE_ROWS);
}

async function countRows(db: Kysely<Database>, table: string, workspaceId: string): Promise<number> {
  const row = await untyped(db)
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Writes one workspace to a portable archive (docs/operate.md): every archived table's rows, read from one
 * snapshot of the database while the server goes on serving, and each media row's file. Memory stays
 * bounded: rows are read a page at a time and written in chunks of a few megabytes, files are streamed.
 */
export async function exportWorkspace(options: ExportOptions): Promise<ExportSummary> {
  const started = performance.now();
  const progress = options.progress ?? silentProgress;
  const summary = await readSnapshot(options.database, async (db): Promise<ExportSummary> => {
    const workspace = await workspacesRepository.findByIdOrSlug(db, options.workspace);
    if (!workspace) throw notFound(`Workspace ${options.workspace}`);
    const counts = await Promise.all(ARCHIVED_TABLES.map((table) => countRows(db, table.name, workspace.id)));
    const total = counts.reduce((sum, count) => sum + count, 0);

    const writer = await ArchiveWriter.create(options.out, {
      format: 'quire-workspace',
      version: formatVersion('quire-workspace'),
      createdAt: new Date().toISOString(),
      writtenBy: quireRelease(),
      workspace: { id: workspace.id, slug: workspace.slug, name: workspace.name },
      derivedFieldsVersion: DERIVED_FIELDS_VERSION,
      tables: [...ARCHIVED_TABLES.map((table) => table.name), SETTINGS_TABLE],
    });
    const rows: Record<string, number> = {};
    const deleted: Record<string, number> = {};
    let files = 0;
    let missingFiles = 0;
    let done = 0;
    progress.start(`export ${workspace.slug}`, total, 'rows');
    try {
      for (const table of ARCHIVED_TABLES) {
        let written = 0;
        const softDeletes = 'deleted_at' in table.columns;
        let trashed = 0;
        for await (const page of tablePages(db, table, workspace.id)) {
          written += await writer.rows(table.name, [page.map((row) => encodeRowLine(table, row))]);
          if (softDeletes) trashed += page.filter((row) => row.deleted_at !== null).length;
          if (table.name === 'media') {
            for (const media of page) {
              const stored = await options.storage.get(String(media.storage_path));
              if (stored === null) missingFiles += 1;
              else {
                await writer.file(`files/${String(media.id)}/${String(media.filename)}`, stored.size, stored.stream);
                files += 1;
              }
            }
          }
          done += page.length;
          progress.update(done);
        }
        rows[table.name] = written - trashed;
        if (softDeletes) deleted[table.name] = trashed;
      }
      const settings = Object.fromEntries(SETTINGS_COLUMNS.map((column) => [column, workspace[column]]));
      rows[SETTINGS_TABLE] = await writer.rows(SETTINGS_TABLE, [[settings]]);
      const bytes = await writer.finish();
      progress.end();
      return {
        workspace: { id: workspace.id, slug: workspace.slug, name: workspace.name },
        file: writer.target,
        bytes,
        rows,
        deleted,
        files,
        missingFiles,
        seconds: Math.round(performance.now() - started) / 1000,
      };
    } catch (error) {
      await writer.abort();
      throw error;
    }
  });
  // The file name only: where an operator keeps archives is theirs, and the archive holds no secret either.
  await recordAudit(options.database.db, summary.workspace.id, COMMAND_LINE, {
    action: 'export.made',
    details: { file: path.basename(summary.file), bytes: summary.bytes, files: summary.files },
  });
  return summary;
}
