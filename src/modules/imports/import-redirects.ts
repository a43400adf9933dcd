import type { Redirect } from '../redirects/redirects.schemas.js';
import { RedirectCreateBody, RedirectUpdateBody } from '../redirects/redirects.schemas.js';
import { checked } from './import-bodies.js';
import {
  failureMessage,
  findInLedger,
  isNotFound,
  ledgerKey,
  ledgerWriter,
  pretendId,
  reportItem,
  tallyNote,
  type ImportContext,
} from './import-context.js';
import { contentHash } from './import-hash.js';
import { storableDeep } from './storable.js';
import type { ItemAction } from './import-report.js';
import type { ImportEntry, ImportRedirect } from './import-source.js';

const noPattern = (type: 'post' | 'page') =>
  `old URLs of ${type}s were not redirected: the workspace has no ${type} URL pattern (Settings, or quire workspace settings --${type}-url-pattern); set it and run the import again`;
const WITH_QUERY = 'old URLs with a query string (such as /?p=42) were not redirected: Quire redirects match paths';

/** A path with one trailing slash or none compares alike: `/a/` and `/a` are one page to a reader. */
const samePath = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/** Redirects from where the entry was on the old site to where the workspace's URL pattern puts it now. */
export async function importOldPaths(context: ImportContext, entry: ImportEntry, slug: string): Promise<void> {
  if (entry.oldPaths.length === 0) return;
  const pattern = entry.type === 'post' ? context.settings.postUrlPattern : context.settings.pageUrlPattern;
  if (!pattern) return tallyNote(context, noPattern(entry.type));
  const toPath = pattern.replace('{slug}', encodeURIComponent(slug));
  for (const fromPath of new Set(entry.oldPaths)) {
    if (fromPath.includes('?')) tallyNote(context, WITH_QUERY);
    else if (!samePath(fromPath, toPath))
      await importRedirect(context, { type: 'redirect', sourceId: fromPath, fromPath, toPath, statusCode: 301 });
  }
}

/** A redirect, keyed in the ledger by where it comes from. */
export async function importRedirect(context: ImportContext, redirect: ImportRedirect): Promise<void> {
  const key = ledgerKey(context, 'redirect', redirect.sourceId);
  const body = storableDeep({
    fromPath: redirect.fromPath,
    toPath: redirect.toPath,
    statusCode: redirect.statusCode ?? 301,
  });
  const hash = contentHash(body);
  const report = (action: ItemAction, quireId: string | null, message?: string) =>
    reportItem(context, {
      type: 'redirect',
      sourceId: redirect.sourceId,
      title: `${redirect.fromPath} → ${redirect.toPath}`,
      action,
      quireId,
      approximated: [],
      dropped: [],
      ...(message === undefined ? {} : { message }),
    });
  try {
    const known = await findInLedger(context, key);
    const current = known && (await found(context, known.quireId));
    if (current && known.contentHash === hash) return report('unchanged', current.id);
    if (current) {
      const update = checked(RedirectUpdateBody, body);
      const id = context.dryRun
        ? current.id
        : (await context.services.redirects.update(ledgerWriter(context, key, hash), current.id, update)).id;
      return report('updated', id);
    }
    const create = checked(RedirectCreateBody, body);
    const id = context.dryRun
      ? pretendId()
      : (await context.services.redirects.create(ledgerWriter(context, key, hash), create)).id;
    return report('created', id);
  } catch (error) {
    return report('failed', null, failureMessage(error));
  }
}

async function found(context: ImportContext, id: string): Promise<Redirect | null> {
  try {
    return await context.services.redirects.get(context.actor, id);
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}
