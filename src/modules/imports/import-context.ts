import { randomUUID } from 'node:crypto';
import type { DatabaseHandle } from '../../db/database.js';
import { AppError } from '../../errors.js';
import type { Actor } from '../../security/actor.js';
import type { AlongsideWriter } from '../../writes/content-write.js';
import type { AuthorsService } from '../authors/authors.service.js';
import type { CategoriesService } from '../categories/categories.service.js';
import type { MediaService } from '../media/media.service.js';
import type { PagesService } from '../pages/pages.service.js';
import type { PostsService } from '../posts/posts.service.js';
import type { RedirectsService } from '../redirects/redirects.service.js';
import type { TagsService } from '../tags/tags.service.js';
import { nowIso } from '../../shared/time.js';
import type { SiteSettings } from '../workspaces/site-settings.js';
import {
  importLedgerRepository,
  type LedgerEntry,
  type LedgerItemType,
  type LedgerKey,
} from './import-ledger.repository.js';
import type { MediaImporter } from './import-media.js';
import { countItem, type ImportReport, type ItemReport } from './import-report.js';
import type { ImportSource } from './import-source.js';

/** The services an import writes through: the ones the API writes with. */
export interface ImportServices {
  authors: AuthorsService;
  categories: CategoriesService;
  tags: TagsService;
  posts: PostsService;
  pages: PagesService;
  redirects: RedirectsService;
  media: MediaService;
}

/** What each step of a run shares: where it writes, who writes, what was resolved so far and the report. */
export interface ImportContext {
  database: DatabaseHandle;
  services: ImportServices;
  actor: Actor;
  source: ImportSource;
  /** The ledger's name of the source: its format and site. */
  sourceName: string;
  dryRun: boolean;
  settings: SiteSettings;
  media: MediaImporter;
  /** Source id → Quire id of the authors, categories and tags this run met (dry runs: made-up ids). */
  ids: Record<'author' | 'category' | 'tag', Map<string, string>>;
  report: ImportReport;
  /** Run-wide notes and how often each applied: the report's source notes at the end. */
  tally: Map<string, number>;
}

/** Counts one more case of a run-wide note. */
export function tallyNote(context: ImportContext, message: string): void {
  context.tally.set(message, (context.tally.get(message) ?? 0) + 1);
}

export function ledgerKey(context: ImportContext, itemType: LedgerItemType, sourceId: string): LedgerKey {
  return { workspaceId: context.actor.workspaceId, source: context.sourceName, itemType, sourceId };
}

export function findInLedger(context: ImportContext, key: LedgerKey): Promise<LedgerEntry | undefined> {
  return importLedgerRepository.find(context.database.db, key);
}

/** The owner as a writer whose write records its ledger row in the same transaction. */
export function ledgerWriter(context: ImportContext, key: LedgerKey, contentHash: string): Actor & AlongsideWriter {
  return {
    ...context.actor,
    alongside: async (trx, answer) => {
      const quireId = (answer as { id: string }).id;
      await importLedgerRepository.record(trx, key, { quireId, contentHash }, nowIso());
    },
  };
}

/** The id a dry run pretends a new item got. */
export const pretendId = () => randomUUID();

/** Whether an error is the 404 of a row that is gone (deleted in Quire since it was imported). */
export function isNotFound(error: unknown): boolean {
  return error instanceof AppError && error.code === 'NOT_FOUND';
}

/** What a failed write says, for the report: a validation error names its field. */
export function failureMessage(error: unknown): string {
  if (error instanceof AppError) {
    const issues = (error.details as { issues?: Array<{ path: string; message: string }> } | null)?.issues;
    return issues && issues.length > 0
      ? issues.map((issue) => `${issue.path || '/'} ${issue.message}`).join('; ')
      : error.message;
  }
  return `unexpected error: ${(error as Error).message}`;
}

export function reportItem(context: ImportContext, item: ItemReport): void {
  countItem(context.report, item);
  // Taxonomy that simply went in is counted; posts and pages, and anything noteworthy, are listed.
  const listed =
    item.type === 'post' ||
    item.type === 'page' ||
    item.action === 'failed' ||
    item.approximated.length > 0 ||
    item.dropped.length > 0;
  // A copy: a reader's strings are often slices of a whole body or of a parser's chunk, and a note kept as a
  // slice would keep all of it alive for the rest of the run.
  if (listed) context.report.items.push(structuredClone(item));
}
