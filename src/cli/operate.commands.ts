import { createMediaStorage } from '../modules/media/storage/storage.js';
import { exportWorkspace, type ExportSummary } from '../operate/workspace/export.js';
import { importWorkspace, type ImportSummary } from '../operate/workspace/import.js';
import type { Command, CommandInput } from './commands.js';

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
      `${tableCounts(result.rows)}; ${result.files} media files` +
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
};
