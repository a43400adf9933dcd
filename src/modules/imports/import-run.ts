import { performance } from 'node:perf_hooks';
import type { DatabaseHandle } from '../../db/database.js';
import { badRequest } from '../../errors.js';
import { collectGarbage } from '../../shared/gate.js';
import { silentProgress, type Progress } from '../../shared/progress.js';
import type { Actor } from '../../security/actor.js';
import { recordAudit } from '../../audit/audit-log.js';
import { loadSiteSettings } from '../workspaces/site-settings.js';
import { reportItem, type ImportContext, type ImportServices } from './import-context.js';
import { prepareEntry, writeEntry, type PreparedEntry } from './import-entries.js';
import { createMediaImporter } from './import-media.js';
import { importRedirect } from './import-redirects.js';
import { itemName, type ImportReport } from './import-report.js';
import type { ImportSource } from './import-source.js';
import { importTerm } from './import-terms.js';

/** Entries prepared ahead of the one being written: enough to keep media uploads going, few enough to hold. */
const LOOKAHEAD = 8;

/** Resident memory past which a run asks for a full garbage collection (when node exposes `gc`: bin/quire.js). */
const COLLECT_ABOVE_BYTES = 300 * 1024 * 1024;

export interface ImportRunOptions {
  /** Who writes: the workspace's owner (the command line acts as the owner; the dashboard allows only the owner). */
  actor: Actor;
  dryRun: boolean;
  /** Reads and checks everything first, and writes nothing when any item would fail. */
  strict: boolean;
  progress?: Progress;
  media: { maxBytes: number; allowPrivate: boolean; downloadTimeoutMs: number };
}

/**
 * Brings a source into the workspace (docs/imports.md), item by item, in the source's order: each item is all or
 * nothing (one write through the one write path, with its ledger row), and one that fails is reported and the run
 * goes on. A second run of the same source updates what changed and leaves the rest alone.
 */
export async function runImport(
  database: DatabaseHandle,
  services: ImportServices,
  source: ImportSource,
  options: ImportRunOptions,
): Promise<ImportReport> {
  if (options.strict && !options.dryRun) {
    const rehearsal = await pass(database, services, source, { ...options, dryRun: true, progress: silentProgress });
    const failed = rehearsal.items.filter((item) => item.action === 'failed');
    if (failed.length > 0)
      throw badRequest(
        `--strict: ${failed.length} item(s) would fail, so nothing was written. ${failed
          .slice(0, 5)
          .map((item) => `${itemName(item)}: ${item.message ?? 'failed'}`)
          .join('; ')}`,
        { report: rehearsal },
      );
  }
  const report = await pass(database, services, source, options);
  if (!options.dryRun) {
    const outcomes: Record<string, number> = {};
    for (const counts of Object.values(report.counts))
      for (const [action, count] of Object.entries(counts)) outcomes[action] = (outcomes[action] ?? 0) + (count ?? 0);
    await recordAudit(database.db, options.actor.workspaceId, options.actor, {
      action: 'import.finished',
      details: { format: report.format, site: report.site, ...outcomes },
    });
  }
  return report;
}

async function pass(
  database: DatabaseHandle,
  services: ImportServices,
  source: ImportSource,
  options: ImportRunOptions,
): Promise<ImportReport> {
  const started = performance.now();
  const progress = options.progress ?? silentProgress;
  const workspaceId = options.actor.workspaceId;
  const sourceName = `${source.format} ${source.site}`;
  const media = createMediaImporter(database, services.media, options.actor, {
    source: sourceName,
    dryRun: options.dryRun,
    ...options.media,
  });
  const context: ImportContext = {
    database,
    services,
    actor: options.actor,
    source,
    sourceName,
    dryRun: options.dryRun,
    settings: await loadSiteSettings(database.db, workspaceId),
    media,
    ids: { author: new Map(), category: new Map(), tag: new Map() },
    report: {
      format: source.format,
      site: source.site,
      workspaceId,
      dryRun: options.dryRun,
      seconds: 0,
      counts: {},
      items: [],
      sourceNotes: [],
    },
    tally: new Map(),
  };
  progress.start(
    `${options.dryRun ? 'dry run of ' : ''}${source.format} import`,
    await source.entryCount(),
    'posts and pages',
  );
  let entries = 0;
  // Entries prepared ahead of the one being written (their bodies converted, their media uploading), written in
  // the source's order: a site's images are read and resized while the posts before them are written.
  const ahead: Array<Promise<PreparedEntry>> = [];
  const writeOldest = async () => {
    await writeEntry(context, await ahead.shift()!);
    progress.update((entries += 1));
    // A reader makes garbage at the rate it reads (a parser's tokens, each body's strings) and V8 takes its time to
    // give it back: past a bound, a full collection brings the process's memory back near what it holds. Below it,
    // none: each costs a pause.
    if (entries % 100 === 0 && process.memoryUsage.rss() > COLLECT_ABOVE_BYTES) collectGarbage();
  };
  try {
    for await (const item of source.items()) {
      if (item.type === 'post' || item.type === 'page') {
        ahead.push(prepareEntry(context, item));
        if (ahead.length > LOOKAHEAD) await writeOldest();
        continue;
      }
      // Anything else may be what a later entry refers to, or refer to an earlier one: the entries go first.
      while (ahead.length > 0) await writeOldest();
      switch (item.type) {
        case 'author':
        case 'category':
        case 'tag':
          await importTerm(context, item);
          break;
        case 'redirect':
          await importRedirect(context, item);
          break;
        case 'failure':
          reportItem(context, {
            type: 'item',
            sourceId: item.item,
            title: item.item,
            action: 'failed',
            quireId: null,
            approximated: [],
            dropped: [],
            message: item.message,
          });
          // Most failures are posts or pages the reader could not read; the bar counts them as read.
          progress.update((entries += 1));
          break;
      }
    }
    while (ahead.length > 0) await writeOldest();
    progress.end();
  } catch (error) {
    progress.abandon();
    // Entries prepared ahead and never written: their outcome is moot now, and must not go unheard.
    for (const pending of ahead) pending.catch(() => undefined);
    throw error;
  } finally {
    await media.close();
  }
  context.report.sourceNotes = [
    ...source.sourceNotes().map((note) => note.message),
    ...[...context.tally].map(([message, count]) => `${message} (${count})`),
  ];
  context.report.seconds = (performance.now() - started) / 1000;
  return context.report;
}
