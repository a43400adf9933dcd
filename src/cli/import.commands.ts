import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runImport } from '../modules/imports/import-run.js';
import { describeImportReport, type ImportReport } from '../modules/imports/import-report.js';
import type { ImportFormat } from '../modules/imports/import-source.js';
import { openImportSource } from '../modules/imports/open-source.js';
import type { Runtime } from '../runtime.js';
import type { Command, CommandInput } from './command.js';
import { ownerActorOf } from './owner-actor.js';

/** How long one media download may take (docs/imports.md). */
const DOWNLOAD_TIMEOUT_MS = 30_000;

const text = (input: CommandInput, name: string) => {
  const value = input.flags[name];
  return typeof value === 'string' && value !== '' ? value : null;
};

/** Runs an import of `format` from the command line, as the workspace's owner (docs/imports.md). */
async function runImportCommand(runtime: Runtime, input: CommandInput, format: ImportFormat): Promise<ImportReport> {
  const workspace = await runtime.services.accounts.requireWorkspace(text(input, 'workspace')!);
  const workDir = await mkdtemp(path.join(tmpdir(), 'quire-import-'));
  try {
    const source = await openImportSource({
      format,
      path: path.resolve(text(input, 'file')!),
      workDir,
      uploadsDir: text(input, 'uploads') && path.resolve(text(input, 'uploads')!),
      redirectsFile: text(input, 'redirects') && path.resolve(text(input, 'redirects')!),
      primaryTagAsCategory: input.flags['primary-tag-as-category'] === true,
      site: text(input, 'site'),
    });
    try {
      const report = await runImport(runtime.database, runtime.services, source, {
        actor: ownerActorOf(workspace),
        dryRun: input.flags['dry-run'] === true,
        strict: input.flags.strict === true,
        progress: input.progress,
        media: {
          maxBytes: runtime.config.maxUploadBytes,
          allowPrivate: runtime.config.webhookAllowPrivate,
          downloadTimeoutMs: DOWNLOAD_TIMEOUT_MS,
        },
      });
      const reportFile = text(input, 'report');
      if (reportFile) await writeFile(reportFile, `${JSON.stringify(report, null, 2)}\n`);
      return report;
    } finally {
      await source.close();
    }
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

const COMMON = '--workspace W [--dry-run] [--strict] [--report FILE]';

/** `quire import ghost|wordpress|markdown`: bringing a site in from another system. */
export const IMPORT_COMMANDS: Record<string, Command> = {
  'import ghost': {
    usage: `quire import ghost FILE.json|FILE.zip ${COMMON} [--redirects redirects.yaml] [--primary-tag-as-category]`,
    options: ['workspace', 'report', 'redirects'],
    switches: ['dry-run', 'strict', 'primary-tag-as-category'],
    positional: 'file',
    required: ['file', 'workspace'],
    bulkWrites: true,
    run: (runtime, input) => runImportCommand(runtime, input, 'ghost'),
    human: describeImportReport,
  },
  'import wordpress': {
    usage: `quire import wordpress FILE.xml ${COMMON} [--uploads wp-content/uploads]`,
    options: ['workspace', 'report', 'uploads'],
    switches: ['dry-run', 'strict'],
    positional: 'file',
    required: ['file', 'workspace'],
    bulkWrites: true,
    run: (runtime, input) => runImportCommand(runtime, input, 'wordpress'),
    human: describeImportReport,
  },
  'import markdown': {
    usage: `quire import markdown DIR|FILE.zip ${COMMON} [--site NAME]`,
    options: ['workspace', 'report', 'site'],
    switches: ['dry-run', 'strict'],
    positional: 'file',
    required: ['file', 'workspace'],
    bulkWrites: true,
    run: (runtime, input) => runImportCommand(runtime, input, 'markdown'),
    human: describeImportReport,
  },
};
