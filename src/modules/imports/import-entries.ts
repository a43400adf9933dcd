import type { BlockType, ConversionNote, ConversionResult, ImageRef } from '@quire/blocks';
import { existingIds } from '../../db/references.js';
import { claimSlug } from '../../shared/slug-claim.js';
import { pagesRepository } from '../pages/pages.repository.js';
import { postsRepository } from '../posts/posts.repository.js';
import { PageCreateBody, PageUpdateBody } from '../pages/pages.schemas.js';
import { POST_LIMITS, PostCreateBody, PostUpdateBody } from '../posts/posts.schemas.js';
import type { Seo } from '../seo/seo.schemas.js';
import { checked, fitted, importSlug, webUrl } from './import-bodies.js';
import { storableDeep } from './storable.js';
import {
  failureMessage,
  findInLedger,
  isNotFound,
  ledgerKey,
  ledgerWriter,
  pretendId,
  reportItem,
  type ImportContext,
} from './import-context.js';
import { contentHash } from './import-hash.js';
import type { LedgerEntry, LedgerKey } from './import-ledger.repository.js';
import { partNotes, type ItemAction } from './import-report.js';
import type { ImportEntry, ImportSeo, MediaRef } from './import-source.js';
import { importOldPaths } from './import-redirects.js';

const TITLE_MAX = 300;

/** The entry as the ledger hashes it: its media by their source keys, not by where this run found their bytes. */
function hashable(entry: ImportEntry): unknown {
  const ref = (media: MediaRef | null | undefined) =>
    media ? { key: media.key, alt: media.alt ?? null, caption: media.caption ?? null } : null;
  const { body, featuredImage, seo, notes: _notes, ...rest } = entry;
  return {
    ...rest,
    body: body.fingerprint,
    featuredImage: ref(featuredImage),
    seo: seo && {
      ...seo,
      og: seo.og && { ...seo.og, image: ref(seo.og.image) },
      twitter: seo.twitter && { ...seo.twitter, image: ref(seo.twitter.image) },
    },
  };
}

/** A note of what an entry lost on the way. */
const note = (kind: ConversionNote['kind'], element: string, excerpt: string): ConversionNote => ({
  kind,
  element,
  excerpt: excerpt.length > 120 ? `${excerpt.slice(0, 119)}…` : excerpt,
});

/** A note, once: a file named twice by an entry is reported once. */
function addNote(notes: ConversionNote[], added: ConversionNote): void {
  if (
    !notes.some((held) => held.kind === added.kind && held.element === added.element && held.excerpt === added.excerpt)
  )
    notes.push(added);
}

/** Uploads a referenced file; null, with a note, when it cannot be read. */
async function mediaId(context: ImportContext, ref: MediaRef | null | undefined, notes: ConversionNote[]) {
  if (!ref) return null;
  const outcome = await context.media.resolve(ref);
  if (outcome.mediaId === null)
    addNote(notes, note('unresolved-image', 'image', `${ref.key}: could not be read (${outcome.reason})`));
  return outcome.mediaId;
}

/**
 * The body converted with its images uploaded: converted once to learn the images, each located and uploaded,
 * and once more with their ids (a body without images is converted once).
 */
async function convertBody(
  context: ImportContext,
  entry: ImportEntry,
  notes: ConversionNote[],
): Promise<ConversionResult> {
  const first = entry.body.convert({ resolveImage: () => null });
  if (first.report.images.length === 0) return first;
  const ids = new Map<string, string>();
  for (const image of first.report.images) {
    if (ids.has(image.src)) continue;
    const ref = context.source.locateMedia(image.src);
    if (!ref) continue;
    const id = await mediaId(
      context,
      { ...ref, alt: ref.alt || image.alt || null, caption: ref.caption ?? image.caption ?? null },
      notes,
    );
    if (id) ids.set(image.src, id);
  }
  const final = entry.body.convert({ resolveImage: (src) => ids.get(src) ?? null });
  // The converter notes each unresolved image by its element; say instead why it has no file.
  const unresolved = final.report.images.filter((image: ImageRef) => image.mediaId === null);
  notes.push(
    ...unresolved
      .filter((image) => !context.source.locateMedia(image.src))
      .map((image) =>
        note('unresolved-image', 'img', `not in the export and not on the site's own host: ${image.src}`),
      ),
  );
  return {
    blocks: final.blocks,
    report: {
      ...final.report,
      notes: final.report.notes.filter((entryNote) => entryNote.kind !== 'unresolved-image'),
    },
  };
}

async function seoOf(context: ImportContext, seo: ImportSeo | undefined, notes: ConversionNote[]): Promise<Seo | null> {
  if (!seo) return null;
  const og = seo.og && {
    title: fitted(seo.og.title, 300),
    description: fitted(seo.og.description, 1000),
    imageMediaId: (await mediaId(context, seo.og.image, notes)) ?? undefined,
  };
  const twitter = seo.twitter && {
    title: fitted(seo.twitter.title, 300),
    description: fitted(seo.twitter.description, 1000),
    imageMediaId: (await mediaId(context, seo.twitter.image, notes)) ?? undefined,
  };
  const keywords = (seo.secondaryKeywords ?? []).map((keyword) => fitted(keyword, 100)).filter((k) => k !== undefined);
  const robots = seo.robots && { index: seo.robots.index, follow: seo.robots.follow };
  const result = {
    title: fitted(seo.title, 300),
    description: fitted(seo.description, 1000),
    canonicalUrl: webUrl(seo.canonicalUrl),
    focusKeyword: fitted(seo.focusKeyword, 100),
    secondaryKeywords: keywords.length > 0 ? keywords.slice(0, 20) : undefined,
    robots: robots && (robots.index !== undefined || robots.follow !== undefined) ? robots : undefined,
    og: og && Object.values(og).some((value) => value !== undefined) ? og : undefined,
    twitter: twitter && Object.values(twitter).some((value) => value !== undefined) ? twitter : undefined,
  };
  if (seo.canonicalUrl && !result.canonicalUrl)
    notes.push(note('approximated', 'canonicalUrl', `not an http(s) URL: ${seo.canonicalUrl}`));
  // Undefined fields out: the schema refuses nothing of them, and the stored JSON stays small.
  const clean = JSON.parse(JSON.stringify(result)) as Seo;
  return Object.keys(clean).length > 0 ? clean : null;
}

/** The first of a list of references this run resolved; the rest are reported as not kept. */
function firstOf(
  ids: Map<string, string>,
  sourceIds: readonly string[],
  what: string,
  notes: ConversionNote[],
): string | null {
  const found = sourceIds.map((id) => ids.get(id) ?? null);
  for (const [index, sourceId] of sourceIds.entries()) {
    if (found[index] === null) notes.push(note('approximated', what, `${sourceId} was not imported`));
    else if (index > 0 && found.slice(0, index).some((id) => id !== null))
      notes.push(note('approximated', what, `${sourceId} not kept: Quire keeps one ${what} a post`));
  }
  return found.find((id) => id !== null) ?? null;
}

function blockCounts(result: ConversionResult): Partial<Record<BlockType, number>> {
  const counts: Partial<Record<BlockType, number>> = {};
  for (const block of result.blocks) counts[block.type] = (counts[block.type] ?? 0) + 1;
  return counts;
}

/** What an entry's write needs, made ahead of it: the runner prepares a few entries ahead of the one it writes. */
export interface PreparedEntry {
  entry: ImportEntry;
  key: LedgerKey;
  hash: string;
  title: string;
  slug: string;
  notes: ConversionNote[];
  /** The Quire row of an earlier run, when it is still there. */
  live: LedgerEntry | null;
  /** Null when the entry is unchanged since the run that imported it. */
  write: { body: Record<string, unknown>; tagIds: string[]; converted: Partial<Record<BlockType, number>> } | null;
  /** Why the entry cannot be written. */
  error?: unknown;
}

/**
 * Everything of a post or page that comes before its write: whether it changed since the last run, its body
 * converted, its media uploaded (other entries' uploads run meanwhile), its references resolved.
 */
export async function prepareEntry(context: ImportContext, entry: ImportEntry): Promise<PreparedEntry> {
  const table = entry.type === 'post' ? 'posts' : 'pages';
  const title = fitted(entry.title, TITLE_MAX) ?? 'Untitled';
  const prepared: PreparedEntry = {
    entry,
    key: ledgerKey(context, entry.type, entry.sourceId),
    hash: contentHash(hashable(entry)),
    title,
    slug: importSlug(entry.slug, title, `${entry.type}-${entry.sourceId}`.toLowerCase()),
    notes: [...entry.notes],
    live: null,
    write: null,
  };
  const { notes } = prepared;
  if (entry.statusNote) notes.push(note('approximated', 'status', entry.statusNote));
  // Quire has no scheduling: a post published with a date still to come would be refused, so it waits as a draft.
  const later = entry.status === 'published' && !!entry.publishedAt && Date.parse(entry.publishedAt) > Date.now();
  if (later)
    notes.push(
      note('approximated', 'status', `published for ${entry.publishedAt}, still to come: imported as a draft`),
    );
  try {
    const known = await findInLedger(context, prepared.key);
    const { db, dialect } = context.database;
    if (known && (await existingIds(db, dialect, table, context.actor.workspaceId, [known.quireId])).has(known.quireId))
      prepared.live = known;
    if (prepared.live?.contentHash === prepared.hash) return prepared;
    const converted = await convertBody(context, entry, notes);
    notes.push(...converted.report.notes);
    const featuredMediaId = await mediaId(context, entry.featuredImage, notes);
    const seo = await seoOf(context, entry.seo, notes);
    const common = {
      title,
      slug: prepared.slug,
      bodyJson: converted.blocks,
      status: later ? 'draft' : entry.status,
      publishedAt: entry.publishedAt ?? null,
    };
    let body: Record<string, unknown>;
    if (entry.type === 'post') {
      body = {
        ...common,
        excerpt: fitted(entry.excerpt, POST_LIMITS.excerpt) ?? '',
        authorId: firstOf(context.ids.author, entry.authorSourceIds, 'author', notes),
        categoryId: firstOf(context.ids.category, entry.categorySourceIds, 'category', notes),
        featuredMediaId,
        seo,
      };
    } else {
      // A page has no featured image, author or category: the image becomes its Open Graph image.
      const og = featuredMediaId && !seo?.og?.imageMediaId ? { ...seo?.og, imageMediaId: featuredMediaId } : seo?.og;
      body = { ...common, seo: seo || og ? { ...seo, ...(og ? { og } : {}) } : null };
      if (entry.authorSourceIds.length > 0) notes.push(note('approximated', 'author', 'a page has no author in Quire'));
    }
    const tagIds = entry.tagSourceIds.flatMap((id) => {
      const tagId = context.ids.tag.get(id);
      if (!tagId) notes.push(note('approximated', 'tag', `${id} was not imported`));
      return tagId ? [tagId] : [];
    });
    prepared.write = { body: storableDeep(body), tagIds, converted: blockCounts(converted) };
  } catch (error) {
    prepared.error = error;
  }
  return prepared;
}

/** A prepared post or page written: created, updated when it changed since the last run, or left as it is. */
export async function writeEntry(context: ImportContext, prepared: PreparedEntry): Promise<void> {
  const { entry, title, slug, live, write } = prepared;
  const report = (
    action: ItemAction,
    quireId: string | null,
    extra: { message?: string; converted?: Partial<Record<BlockType, number>> } = {},
  ) =>
    reportItem(context, {
      type: entry.type,
      sourceId: entry.sourceId,
      title,
      action,
      quireId,
      ...partNotes(prepared.notes),
      ...extra,
    });
  try {
    if (prepared.error !== undefined) throw prepared.error;
    if (write === null) report('unchanged', live!.quireId);
    else {
      const writer = ledgerWriter(context, prepared.key, prepared.hash);
      const { body, tagIds } = write;
      let quireId: string;
      if (context.dryRun) {
        // A dry run says what the write would answer, a slug another row holds included.
        if (!live) {
          const repository = entry.type === 'post' ? postsRepository : pagesRepository;
          await claimSlug(
            (candidates) => repository.takenSlugs(context.database.db, context.actor.workspaceId, candidates),
            slug,
            title,
            entry.type,
          );
        }
        checked(
          entry.type === 'post' ? (live ? PostUpdateBody : PostCreateBody) : live ? PageUpdateBody : PageCreateBody,
          body,
        );
        quireId = live ? live.quireId : pretendId();
      } else if (entry.type === 'post') {
        quireId = live
          ? (
              await context.services.posts.update(writer, live.quireId, checked(PostUpdateBody, body), undefined, {
                tagIds,
              })
            ).id
          : (await context.services.posts.create(writer, checked(PostCreateBody, body), { tagIds })).id;
      } else {
        quireId = live
          ? (await context.services.pages.update(writer, live.quireId, checked(PageUpdateBody, body))).id
          : (await context.services.pages.create(writer, checked(PageCreateBody, body))).id;
      }
      report(live ? 'updated' : 'created', quireId, { converted: write.converted });
    }
  } catch (error) {
    report('failed', null, { message: isNotFound(error) ? 'a row it refers to is gone' : failureMessage(error) });
    return;
  }
  await importOldPaths(context, entry, slug);
}
