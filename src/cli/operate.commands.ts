import { createMediaStorage } from '../modules/media/storage/storage.js';
import { backupInstallation, type BackupSummary } from '../operate/backup/backup.js';
import { restoreBackup, type RestoreSummary } from '../operate/backup/restore.js';
import { migrateTo, type MoveSummary } from '../operate/move/migrate-to.js';
import type { Runtime } from '../runtime.js';
import { displayDir, withoutPassword } from '../operate/data-location.js';
import { exportWorkspace, type ExportSummary } from '../operate/workspace/export.js';
import { importWorkspace, type ImportSummary } from '../operate/workspace/import.js';
import type { Command, CommandInput } from './command.js';

function text(input: CommandInput, name: string): string | undefined {
  const value = input.flags[name];
  return typeof value === 'string' ? value : undefined;
}

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

function tableCounts(rows: Record<string, number>): string {
  return Object.entries(rows)
    .filter(([, count]) => count > 0)
    .map(([table, count]) => `${count} ${table.replace('_', ' ')}`)
    .join(', ');
}

function describeImport({ plan, dryRun, seconds }: ImportSummary): string {
  const into = `${plan.target.exists ? 'workspace' : 'a new workspace'} ${plan.target.slug}`;
  const create = Object.fromEntries(Object.entries(plan.tables).map(([table, counts]) => [table, counts.create]));
  const present = Object.fromEntries(Object.entries(plan.tables).map(([table, counts]) => [table, counts.present]));
  const lines = [
    dryRun
      ? `Dry run: nothing was written. The import would write into ${into}:`
      : `Imported into ${into} in ${seconds.toFixed(1)} s:`,
    `  rows: ${tableCounts(create) || 'none'}; media files: ${plan.files.create}`,
  ];
  if (plan.merge) lines.push(`  already there, left as they are: ${tableCounts(present) || 'nothing'}`);
  lines.push(`  site settings: ${plan.settings === 'apply' ? "the archive's" : "the workspace's own, kept"}`);
  if (plan.skipped.tables.length + plan.skipped.columns.length > 0)
    lines.push(
      `  skipped (from a newer Quire, no place for them here): ${[...plan.skipped.tables, ...plan.skipped.columns].join(', ')}`,
    );
  return lines.join('\n');
}

function describeBackup(result: BackupSummary): string {
  const parts = [
    result.databaseBytes === null ? null : `the database (${megabytes(result.databaseBytes)})`,
    `${result.mediaFiles} media files`,
    result.masterKeyIncluded ? 'master.key' : null,
  ].filter((part) => part !== null);
  const lines = [
    `Backed up to ${result.file} (${megabytes(result.bytes)}) in ${result.seconds.toFixed(1)} s: ${parts.join(', ')}.`,
  ];
  if (result.missingFiles > 0)
    lines.push(
      `${result.missingFiles} media rows had no file in storage (deleted while the backup ran, or lost before).`,
    );
  if (result.database === 'postgres')
    lines.push('The PostgreSQL database is not in it: back it up with pg_dump (docs/operate.md, "Backups").');
  if (!result.masterKeyIncluded)
    lines.push('The master key comes from QUIRE_MASTER_KEY and is not in it: keep that key with the backup, apart.');
  return lines.join('\n');
}

function describeRestore(result: RestoreSummary): string {
  const dir = displayDir(result.dataDir);
  const lines = [
    `Restored the backup of ${result.backupCreatedAt} into ${dir} in ${result.seconds.toFixed(1)} s: ` +
      `${result.database === 'sqlite' ? 'the database, ' : ''}${result.mediaFiles} media files` +
      `${result.masterKeyRestored ? ', master.key' : ''}.`,
  ];
  if (result.database === 'postgres')
    lines.push('Restore the PostgreSQL database from its pg_dump with pg_restore (docs/operate.md, "Backups").');
  lines.push(`Start the server with QUIRE_DATA_DIR=${dir}; a newer Quire applies its migrations at the first start.`);
  return lines.join('\n');
}

interface MigrateToResult extends MoveSummary {
  from: string;
  to: string;
  /** What to set and keep so that the server runs on the new database with the same keys and files. */
  configuration: { set: Record<string, string>; keep: Record<string, string> };
}

async function runMigrateTo(runtime: Runtime, input: CommandInput): Promise<MigrateToResult> {
  const url = text(input, 'database-url')!;
  const to = /^postgres(ql)?:\/\//.test(url) ? withoutPassword(url) : url;
  const summary = await migrateTo(runtime.database, runtime.config, url, { progress: input.progress, shown: to });
  const dir = displayDir(runtime.config.dataDir);
  const reasons: string[] = [];
  if (runtime.config.masterKey === null) reasons.push('its master.key encrypts the API keys');
  if (runtime.config.mediaStorage.driver === 'local') reasons.push('its media/ holds the uploaded files');
  const keep: Record<string, string> = {};
  if (reasons.length > 0) keep.QUIRE_DATA_DIR = `${dir} (${reasons.join('; ')})`;
  if (runtime.config.masterKey !== null) keep.QUIRE_MASTER_KEY = 'the same key (it encrypts the API keys)';
  return {
    ...summary,
    from: `${dir}/quire.sqlite`,
    to,
    configuration: { set: { DATABASE_URL: withoutPassword(url, '<password>') }, keep },
  };
}

function describeMigrateTo(result: MigrateToResult): string {
  return [
    `Moved ${result.rows} rows of ${Object.keys(result.tables).length} tables from ${result.from} to ${result.to} in ${result.seconds.toFixed(1)} s; every table's row count and checksum match.`,
    'To run on PostgreSQL, stop the server, then:',
    ...Object.entries(result.configuration.set).map(([name, value]) => `  set  ${name}=${value}`),
    ...Object.entries(result.configuration.keep).map(([name, value]) => `  keep ${name}=${value}`),
    `The SQLite file is no longer read; keep it as a backup until the new setup has served for a while.`,
  ].join('\n');
}

/** The commands of issue 25: moving data in and out of an installation. */
export const OPERATE_COMMANDS: Record<string, Command> = {
  export: {
    usage: 'quire export --workspace W --out FILE',
    options: ['workspace', 'out'],
    required: ['workspace', 'out'],
    run: (runtime, input) =>
      exportWorkspace({
        database: runtime.database,
        storage: createMediaStorage(runtime.config),
        workspace: text(input, 'workspace')!,
        out: text(input, 'out')!,
        progress: input.progress,
      }),
    human: (result: ExportSummary) =>
      `Exported workspace ${result.workspace.slug} to ${result.file} (${megabytes(result.bytes)}) in ${result.seconds.toFixed(1)} s: ` +
      `${tableCounts(result.rows)}` +
      (tableCounts(result.deleted) ? `; soft-deleted, in the archive too: ${tableCounts(result.deleted)}` : '') +
      `; ${result.files} media files` +
      (result.missingFiles > 0 ? `; ${result.missingFiles} media rows whose file was not in storage` : ''),
  },

  import: {
    usage: 'quire import FILE [--workspace W] [--owner E] [--merge] [--dry-run]',
    options: ['workspace', 'owner'],
    switches: ['merge', 'dry-run'],
    positional: 'file',
    required: ['file'],
    run: (runtime, input) =>
      importWorkspace(runtime.database, createMediaStorage(runtime.config), {
        file: text(input, 'file')!,
        workspace: text(input, 'workspace'),
        owner: text(input, 'owner'),
        merge: input.flags.merge === true,
        dryRun: input.flags['dry-run'] === true,
        progress: input.progress,
      }),
    human: describeImport,
  },

  backup: {
    usage: 'quire backup --out FILE',
    options: ['out'],
    required: ['out'],
    run: (runtime, input) =>
      backupInstallation({
        config: runtime.config,
        database: runtime.database,
        masterKey: runtime.masterKey,
        storage: createMediaStorage(runtime.config),
        out: text(input, 'out')!,
        progress: input.progress,
      }),
    human: describeBackup,
  },

  'migrate-to': {
    usage: 'quire migrate-to --database-url postgres://…',
    options: ['database-url'],
    required: ['database-url'],
    run: runMigrateTo,
    human: describeMigrateTo,
  },

  restore: {
    usage: 'quire restore FILE   (into QUIRE_DATA_DIR, which must be empty or absent)',
    options: [],
    positional: 'file',
    required: ['file'],
    runWithoutRuntime: (config, input) => restoreBackup(config, text(input, 'file')!, input.progress),
    // Never called: opening a runtime would make the very data dir restore needs empty.
    run: () => Promise.reject(new Error('quire restore runs before any database is opened')),
    human: describeRestore,
  },
};
