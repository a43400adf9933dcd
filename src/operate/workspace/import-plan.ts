import { DERIVED_FIELDS_VERSION } from '../../blocks/derive.js';
import type { DatabaseHandle } from '../../db/database.js';
import { conflict, type AppError } from '../../errors.js';
import type { Progress } from '../progress.js';
import { ArchiveError } from '../archive/format.js';
import { openArchive, type OpenedArchive } from '../archive/reader.js';
import {
  contentOf,
  resolveTarget,
  storedIds,
  uniqueCollision,
  type ArchiveWorkspace,
  type ImportTarget,
} from './import-target.js';
import { checkMediaFile, mediaFileProblem } from './media-files.js';
import { apiRuleProblem } from './row-rules.js';
import { rowProblem, unknownColumns } from './rows.js';
import { archivedTable, SETTINGS_COLUMNS, SETTINGS_TABLE, type ArchivedTable } from './tables.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface ImportOptions {
  file: string;
  /** Workspace id or slug to import into; by default the archive's own. */
  workspace?: string;
  /** Email of the owner of the workspace an import makes when this installation lacks the archive's. */
  owner?: string;
  /** Add what the workspace lacks instead of refusing one that is not empty. */
  merge?: boolean;
}

export interface TableCounts {
  /** Rows in the archive. */
  rows: number;
  /** Rows the import writes. */
  create: number;
  /** Rows already in the workspace, left as they are. */
  present: number;
}

/** What an import will do: all that `--dry-run` prints, found by reading the whole archive and writing nothing. */
export interface ImportPlan {
  file: string;
  archive: ArchiveWorkspace & { createdAt: string; writtenBy: string };
  target: ImportTarget;
  merge: boolean;
  tables: Record<string, TableCounts>;
  files: { create: number; present: number };
  /** `apply`: the archive's site settings replace the workspace's; `keep`: a merge into a workspace that has some. */
  settings: 'apply' | 'keep';
  /** Tables and columns of a newer minor format version that this Quire has no place for. */
  skipped: { tables: string[]; columns: string[] };
}

function damaged(file: string, why: string): ArchiveError {
  return new ArchiveError(`${file} is damaged: ${why}`);
}

/** A row the API would refuse: named by its table, its id (its key) and the field, before anything is written. */
function refused(file: string, table: ArchivedTable, row: Record<string, unknown>, problem: string): ArchiveError {
  const key =
    table.key.length === 1 ? String(row.id) : table.key.map((column) => `${column} ${String(row[column])}`).join(', ');
  return new ArchiveError(`${file} holds what the API would refuse: ${table.name} row ${key}, field ${problem}`);
}

function archiveWorkspace(file: string, header: Record<string, unknown>): ArchiveWorkspace {
  const workspace = header.workspace as Partial<ArchiveWorkspace> | undefined;
  if (
    !workspace ||
    !UUID.test(String(workspace.id)) ||
    typeof workspace.slug !== 'string' ||
    typeof workspace.name !== 'string'
  )
    throw damaged(file, 'its header does not name its workspace');
  if (header.derivedFieldsVersion !== DERIVED_FIELDS_VERSION)
    throw new ArchiveError(
      `${file} holds fields derived by rules version ${String(header.derivedFieldsVersion)}; this Quire derives them by version ${DERIVED_FIELDS_VERSION}: import it with the Quire that wrote it (${String(header.writtenBy)}) and export again after upgrading`,
    );
  return { id: workspace.id!, slug: workspace.slug, name: workspace.name };
}

function hasSettings(row: Record<string, unknown> | undefined): boolean {
  return SETTINGS_COLUMNS.some(
    (column) => column !== 'site_name' && row?.[column] !== null && row?.[column] !== undefined,
  );
}

/**
 * The first of an import's two passes: reads the whole archive, checking every entry against its checksum,
 * every row against its table, every reference against the rows before it and every id and slug against
 * the workspace, and answers what the second pass would write. It writes nothing, so a truncated, modified
 * or conflicting archive is refused before any row or file is written.
 */
export async function planImport(
  database: DatabaseHandle,
  options: ImportOptions,
  progress: Progress,
): Promise<ImportPlan> {
  const { file } = options;
  const archive = await openArchive(file, 'quire-workspace');
  try {
    const archived = archiveWorkspace(file, archive.header);
    const target = await resolveTarget(database, archived, options);
    const merge = options.merge === true;
    if (target.exists && !merge) {
      const held = await contentOf(database.db, target.id);
      if (held)
        throw conflict(
          `Workspace ${target.slug} is not empty (${held}): import into an empty workspace, or add --merge to add only what it lacks`,
        );
    }
    const plan: ImportPlan = {
      file,
      archive: {
        ...archived,
        createdAt: String(archive.header.createdAt),
        writtenBy: String(archive.header.writtenBy),
      },
      target,
      merge,
      tables: {},
      files: { create: 0, present: 0 },
      settings: 'apply',
      skipped: { tables: [], columns: [] },
    };
    await checkEntries(database, archive, plan, progress);
    if (merge && target.exists) {
      const current = await database.db
        .selectFrom('workspaces')
        .selectAll()
        .where('id', '=', target.id)
        .executeTakeFirst();
      if (hasSettings(current)) plan.settings = 'keep';
    }
    return plan;
  } finally {
    archive.close();
  }
}

async function checkEntries(database: DatabaseHandle, archive: OpenedArchive, plan: ImportPlan, progress: Progress) {
  const { file } = plan;
  const seen = new Map<string, Set<string>>();
  const media = new Map<string, { filename: string; present: boolean; row: Record<string, unknown> }>();
  // The rows the workspace has already, by table: the rows that belong to them are left as they are.
  const present = new Map<string, Set<string>>();
  const skippedColumns = new Set<string>();
  let settingsRows = 0;
  // A conflict is reported once the whole archive has been read: a damaged archive is told as damaged.
  let conflictFound: AppError | null = null;
  const megabytes = (bytes: number) => Math.round(bytes / 1e5) / 10;
  progress.start(`check ${file}`, megabytes(archive.size), 'MB');

  for await (const entry of archive.entries) {
    progress.update(megabytes(archive.bytesRead()));
    if (entry.kind === 'file') {
      const [, id, filename] = /^files\/([^/]+)\/([^/]+)$/.exec(entry.name) ?? [];
      const row = media.get(id ?? '');
      if (!row || row.filename !== filename)
        throw damaged(file, `it holds a file, ${entry.name}, of no media row before it`);
      const problem = mediaFileProblem(row.row, await checkMediaFile(entry.chunks));
      if (problem) throw refused(file, archivedTable('media')!, row.row, problem);
      if (row.present) plan.files.present += 1;
      else plan.files.create += 1;
      continue;
    }
    if (entry.table === SETTINGS_TABLE) {
      settingsRows += entry.rows.length;
      for (const row of entry.rows) {
        for (const column of SETTINGS_COLUMNS)
          if (row[column] !== null && typeof row[column] !== 'string')
            throw damaged(file, `its site settings' ${column} is not a string`);
        const problem = apiRuleProblem(SETTINGS_TABLE, row);
        if (problem) throw new ArchiveError(`${file} holds what the API would refuse: site_settings, field ${problem}`);
        const logo = row.logo_media_id;
        if (typeof logo === 'string' && !seen.get('media')?.has(logo))
          throw new ArchiveError(
            `${file} holds what the API would refuse: site_settings, field logo_media_id names a media row (${logo}) that the archive does not hold`,
          );
      }
      continue;
    }
    const table = archivedTable(entry.table);
    if (!table) {
      if (!archive.newerMinor)
        throw damaged(file, `it holds a table this format version does not have (${entry.table})`);
      if (!plan.skipped.tables.includes(entry.table)) plan.skipped.tables.push(entry.table);
      continue;
    }
    const counts = (plan.tables[table.name] ??= { rows: 0, create: 0, present: 0 });
    const known = seen.get(table.name) ?? new Set<string>();
    seen.set(table.name, known);
    entry.rows.forEach((row, index) => {
      const problem = rowProblem(table, row);
      if (problem) throw damaged(file, `row ${counts.rows + index + 1} of ${table.name}: ${problem}`);
      const refusal = apiRuleProblem(table, row);
      if (refusal) throw refused(file, table, row, refusal);
      for (const column of unknownColumns(table, row)) {
        if (!archive.newerMinor)
          throw damaged(
            file,
            `row ${counts.rows + index + 1} of ${table.name} has a column this format version does not have (${column})`,
          );
        skippedColumns.add(`${table.name}.${column}`);
      }
      for (const [column, referenced] of Object.entries(table.references ?? {})) {
        const value = row[column];
        if (value !== null && !seen.get(referenced)?.has(String(value)))
          throw damaged(
            file,
            `row ${counts.rows + index + 1} of ${table.name} names a row of ${referenced} (${String(value)}) that the archive does not hold before it`,
          );
      }
      if (table.key.length === 1) known.add(String(row.id));
    });
    counts.rows += entry.rows.length;

    if (table.key.length === 1) {
      const ids = entry.rows.map((row) => String(row.id));
      const stored = await storedIds(database.db, table, ids);
      for (const [id, workspaceId] of stored) {
        if (workspaceId !== plan.target.id)
          conflictFound ??= conflict(
            `The archive's ${table.name} row ${id} already exists in another workspace of this installation: ids are kept, so one archive can be imported into one workspace here`,
          );
      }
      const collision = await uniqueCollision(
        database.db,
        table,
        plan.target.id,
        entry.rows.filter((row) => !stored.has(String(row.id))),
      );
      if (collision !== null)
        conflictFound ??= conflict(
          `The archive's ${table.name} ${collision} is taken by another row of workspace ${plan.target.slug}`,
        );
      counts.present += stored.size;
      counts.create += entry.rows.length - stored.size;
      const kept = present.get(table.name) ?? new Set<string>();
      for (const id of stored.keys()) kept.add(id);
      present.set(table.name, kept);
      if (table.name === 'media')
        for (const row of entry.rows)
          media.set(String(row.id), { filename: String(row.filename), present: stored.has(String(row.id)), row });
    } else {
      // A post's tags, related posts and revisions belong to it: written with a post the import writes, left
      // with one it keeps.
      const owner = table.belongsTo!;
      const kept = entry.rows.filter((row) => present.get(owner.table)?.has(String(row[owner.column]))).length;
      counts.present += kept;
      counts.create += entry.rows.length - kept;
    }
  }
  if (settingsRows !== 1) throw damaged(file, `it holds ${settingsRows} site settings rows instead of one`);
  if (conflictFound) throw conflictFound;
  plan.skipped.columns = [...skippedColumns];
  progress.end();
}
