import type { BlockType, ConversionNote } from '@quire/blocks';
import type { ImportFormat } from './import-source.js';

export type ReportedType = 'author' | 'category' | 'tag' | 'post' | 'page' | 'redirect' | 'media';

/**
 * What became of one item. `adopted`: a category, tag or author the workspace already had under that slug, now
 * the item's (nothing of it changed); `unchanged`: imported before and the same since; `skipped`: nothing to write
 * (a redirect from where the entry already lives).
 */
export type ItemAction = 'created' | 'updated' | 'unchanged' | 'adopted' | 'skipped' | 'failed';

export interface ItemReport {
  type: ReportedType | 'item';
  sourceId: string;
  /** The title or name, for a person. */
  title: string;
  action: ItemAction;
  quireId: string | null;
  /** Posts and pages: the blocks the body became, by type. */
  converted?: Partial<Record<BlockType, number>>;
  /** Kept in part: a nested list flattened, a second author, a table as paragraphs, a long paragraph split. */
  approximated: ConversionNote[];
  /** Not kept: content with no block, an image that could not be read, an unsafe link. */
  dropped: ConversionNote[];
  /** Why it failed. */
  message?: string;
}

export type ActionCounts = Partial<Record<ItemAction, number>>;

export interface ImportReport {
  format: ImportFormat;
  site: string;
  workspaceId: string;
  dryRun: boolean;
  seconds: number;
  counts: Partial<Record<ReportedType | 'item', ActionCounts>>;
  /** Every post and page, and every other item that did not simply go in. */
  items: ItemReport[];
  /** What the reader said of the whole source (trashed posts skipped, a regex redirect that has no equal). */
  sourceNotes: string[];
}

const APPROXIMATED = new Set<ConversionNote['kind']>(['approximated', 'split', 'truncated']);

/** A conversion's notes parted into what was kept in part and what was not kept. */
export function partNotes(notes: readonly ConversionNote[]): Pick<ItemReport, 'approximated' | 'dropped'> {
  return {
    approximated: notes.filter((note) => APPROXIMATED.has(note.kind)),
    dropped: notes.filter((note) => !APPROXIMATED.has(note.kind)),
  };
}

export function countItem(report: ImportReport, item: ItemReport): void {
  const counts = (report.counts[item.type] ??= {});
  counts[item.action] = (counts[item.action] ?? 0) + 1;
}

const SHOWN = 200;

/** A note under its heading: the element it is about, and the kind when the heading does not already say it. */
function noteLine(heading: 'approximated' | 'dropped', note: ConversionNote): string {
  const kind = ['link-removed', 'split', 'truncated'].includes(note.kind) ? ` (${note.kind})` : '';
  return `    ${heading}: ${note.element}${kind}${note.excerpt ? `: ${note.excerpt}` : ''}`;
}

/** An item as a person names it: `post 42 "Hello"`, or what the reader said of an item it could not read. */
export function itemName(item: ItemReport): string {
  return item.type === 'item' ? item.title : `${item.type} ${item.sourceId} "${item.title}"`;
}

function itemLine(item: ItemReport): string {
  return `${itemName(item)}: ${item.action}${item.message ? `: ${item.message}` : ''}`;
}

/** The report as a person reads it: the counts, then each item that failed or lost something, at most 200. */
export function describeImportReport(report: ImportReport): string {
  const head = report.dryRun
    ? `Dry run of a ${report.format} import from ${report.site}: nothing was written. It would do:`
    : `Imported from ${report.format} (${report.site}) in ${report.seconds.toFixed(1)} s:`;
  const counts = Object.entries(report.counts).map(
    ([type, actions]) =>
      `  ${type}: ${Object.entries(actions)
        .map(([action, n]) => `${n} ${action}`)
        .join(', ')}`,
  );
  const noteworthy = report.items.filter(
    (item) => item.action === 'failed' || item.approximated.length > 0 || item.dropped.length > 0,
  );
  const details = noteworthy
    .slice(0, SHOWN)
    .flatMap((item) => [
      itemLine(item),
      ...item.approximated.map((note) => noteLine('approximated', note)),
      ...item.dropped.map((note) => noteLine('dropped', note)),
    ]);
  const more =
    noteworthy.length > SHOWN
      ? [`… and ${noteworthy.length - SHOWN} more items with notes (--json or --report FILE lists every one)`]
      : [];
  return [
    head,
    ...counts,
    ...report.sourceNotes.map((note) => `note: ${note}`),
    ...(details.length > 0 ? ['', ...details, ...more] : []),
  ].join('\n');
}
