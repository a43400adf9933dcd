import { htmlToBlocks, type ConversionNote } from '@quire/blocks';
import type { ImportEntry, ImportFailure, MediaRef } from '../../import-source.js';
import { bodyHtml } from './body-html.js';
import type { BodyContext } from './body-context.js';
import { htmlText } from './html-text.js';
import type { MediaLocator } from './media.js';
import { seoOf } from './seo.js';
import { wordpressDate } from './seo-variables.js';
import { storableText } from './storable.js';
import { coAuthorLogin, ENTRY_TYPES, SKIPPED_STATUSES, termsOf, type WxrIndex } from './wxr-index.js';
import type { WxrItem } from './wxr-reader.js';

/*
 * One WXR item as a Quire post or page, in the source's ids. The body's HTML is built here, once, so a body that
 * cannot be read fails its item; converting it into blocks waits for the runner's media ids.
 */

const ZERO_DATE = '0000-00-00 00:00:00';
const TITLE_WORDS = 8;

/** `2019-05-01 10:00:00` as UTC, or null when it is no such date. */
export function parseWxrDate(text: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
  if (match === null) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as number[];
  const date = new Date(Date.UTC(year!, month! - 1, day!, hour!, minute!, second!));
  const same =
    date.getUTCFullYear() === year && date.getUTCMonth() === month! - 1 && date.getUTCDate() === day && hour! < 24;
  return same ? date : null;
}

const STATUS: Record<string, { status: 'published' | 'draft'; note?: (date: string) => string }> = {
  publish: { status: 'published' },
  draft: { status: 'draft' },
  pending: { status: 'draft', note: () => 'pending review on WordPress: imported as a draft' },
  future: { status: 'draft', note: (date) => `scheduled on WordPress for ${date}: imported as a draft` },
  private: { status: 'draft', note: () => 'private on WordPress: imported as a draft' },
};

export interface EntryOptions {
  index: WxrIndex;
  locator: MediaLocator;
}

/** The entry, a failure naming it, or null for an item that is no post or page to import. */
export function entryOf(item: WxrItem, { index, locator }: EntryOptions): ImportEntry | ImportFailure | null {
  const field = (name: string) => (item.fields.get(name) ?? '').trim();
  const type = field('wp:post_type') || 'post';
  const wpStatus = field('wp:status');
  if (!ENTRY_TYPES.has(type) || SKIPPED_STATUSES.has(wpStatus)) return null;
  const id = field('wp:post_id') || `line ${item.line}`;
  const rawTitle = htmlText(storableText(field('title')));
  const name = `${type} ${id} "${rawTitle}"`;
  const fail = (message: string): ImportFailure => ({ type: 'failure', item: name, message });
  if (item.oversized !== undefined) return fail(`${item.oversized} is over 5 MB of text: not read`);

  const mapping = STATUS[wpStatus];
  if (mapping === undefined) return fail(`unknown status "${wpStatus}"`);
  const gmt = field('wp:post_date_gmt');
  const local = field('wp:post_date');
  const dateText = gmt !== '' && gmt !== ZERO_DATE ? gmt : local;
  let date: Date | null = null;
  if (dateText !== '' && dateText !== ZERO_DATE) {
    date = parseWxrDate(dateText);
    if (date === null) return fail(`its date "${dateText}" is not a date`);
  }
  const drafted = wpStatus === 'draft' || wpStatus === 'pending';
  const publishedAt = drafted || date === null ? null : date.toISOString();
  if (mapping.status === 'published' && publishedAt === null) return fail('it is published but has no date');

  const content = item.fields.get('content:encoded') ?? '';
  const context: BodyContext = { postId: field('wp:post_id'), index, notes: [], used: new Map() };
  let html: string;
  try {
    html = bodyHtml(content, context, locator);
  } catch (error) {
    return fail(`its content could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  const readerNotes: ConversionNote[] = context.notes;
  const used = [...context.used.values()]
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((found) => [found.id, found.url, found.alt, found.caption]);

  const meta = new Map<string, string>();
  for (const [key, value] of item.meta) if (!meta.has(key)) meta.set(key, storableText(value));
  const excerpt = htmlText(storableText(field('excerpt:encoded')));
  const title = rawTitle || untitled(html);

  const creator = field('dc:creator');
  const authors = [...new Set([creator, ...termsOf(item, 'author').map(coAuthorLogin)].filter(Boolean))];
  const post = type === 'post';
  const categories = post ? orderedCategories(item, meta, index) : [];
  const tags = post
    ? [
        ...new Set(
          termsOf(item, 'post_tag')
            .map((term) => term.nicename)
            .filter(Boolean),
        ),
      ]
    : [];

  const thumbnail = index.attachments.get(meta.get('_thumbnail_id')?.trim() ?? '');
  let featuredImage: MediaRef | null = null;
  if (thumbnail !== undefined) {
    const located = locator.locate(thumbnail.url);
    if (located !== null)
      featuredImage = {
        ...located,
        ...(thumbnail.alt === '' ? {} : { alt: thumbnail.alt }),
        ...(thumbnail.caption === '' ? {} : { caption: htmlText(thumbnail.caption) }),
      };
  }

  const categoryName = (slug: string | undefined) =>
    slug === undefined ? '' : (index.categories.get(slug)?.name ?? '');
  const seo = seoOf(
    meta,
    {
      title,
      siteName: index.title,
      siteDescription: index.description,
      excerpt: excerpt || htmlText(html).split(/\s+/).slice(0, 55).join(' '),
      category: categories.map(categoryName).filter(Boolean).join(', '),
      primaryCategory: categoryName(categories[0]),
      tags: tags.map((slug) => index.tags.get(slug)?.name ?? slug).join(', '),
      author: index.authors.get(creator)?.displayName ?? creator,
      focusKeyword: meta.get('_yoast_wpseo_focuskw') ?? meta.get('rank_math_focus_keyword')?.split(',')[0] ?? '',
      date: date === null ? '' : wordpressDate(date),
      currentYear: String(new Date().getUTCFullYear()),
    },
    locator.locate,
  );

  const slug = decodeSlug(field('wp:post_name'));
  const notes: ConversionNote[] = [];
  if (field('wp:post_password') !== '')
    notes.push({ kind: 'unsupported', element: 'post_password', excerpt: 'password-protected on WordPress' });
  return {
    type: post ? 'post' : 'page',
    sourceId: field('wp:post_id') || id,
    title,
    ...(slug === '' ? {} : { slug }),
    ...(excerpt === '' ? {} : { excerpt }),
    status: mapping.status,
    ...(mapping.note === undefined ? {} : { statusNote: mapping.note(date?.toISOString() ?? 'no date') }),
    publishedAt,
    body: {
      convert(options) {
        const result = htmlToBlocks(html, options);
        return { blocks: result.blocks, report: { ...result.report, notes: [...readerNotes, ...result.report.notes] } };
      },
      fingerprint: used.length === 0 ? content : `${content}\n${JSON.stringify(used)}`,
    },
    authorSourceIds: authors,
    categorySourceIds: categories,
    tagSourceIds: tags,
    featuredImage,
    ...(seo === undefined ? {} : { seo }),
    oldPaths: oldPaths(item, field('wp:post_id'), slug),
    notes,
  };
}

/** The post's categories, the primary one (Yoast's, else Rank Math's, by term id) first. */
function orderedCategories(item: WxrItem, meta: ReadonlyMap<string, string>, index: WxrIndex): string[] {
  const slugs = [
    ...new Set(
      termsOf(item, 'category')
        .map((term) => term.nicename)
        .filter(Boolean),
    ),
  ];
  const primaryId = meta.get('_yoast_wpseo_primary_category')?.trim() || meta.get('rank_math_primary_category')?.trim();
  const primary = primaryId === undefined ? undefined : index.categoryByTermId.get(primaryId);
  if (primary === undefined || !slugs.includes(primary)) return slugs;
  return [primary, ...slugs.filter((slug) => slug !== primary)];
}

/** A title for an item with none: the first words of its body, else "Untitled". */
function untitled(html: string): string {
  const words = htmlText(html).split(/\s+/).filter(Boolean);
  if (words.length === 0) return 'Untitled';
  const head = words.slice(0, TITLE_WORDS).join(' ');
  return words.length > TITLE_WORDS ? `${head}…` : head;
}

/** WordPress stores a slug with non-ASCII letters percent-encoded. */
function decodeSlug(slug: string): string {
  try {
    return decodeURIComponent(slug);
  } catch {
    return slug;
  }
}

/** The entry's permalink path, `/?p=ID`, and its permalink with each old slug in place of the current one. */
function oldPaths(item: WxrItem, id: string, slug: string): string[] {
  const paths: string[] = [];
  let permalink: URL | null = null;
  try {
    permalink = new URL((item.fields.get('link') ?? '').trim());
  } catch {
    permalink = null;
  }
  const path = permalink === null ? '' : `${permalink.pathname}${permalink.search}`;
  if (path !== '' && path !== '/') paths.push(path);
  if (/^\d+$/.test(id)) paths.push(`/?p=${id}`);
  const encodedSlug = (item.fields.get('wp:post_name') ?? '').trim();
  if (permalink !== null && encodedSlug !== '') {
    const segments = permalink.pathname.split('/');
    const at = segments.lastIndexOf(encodedSlug) >= 0 ? segments.lastIndexOf(encodedSlug) : segments.lastIndexOf(slug);
    for (const [key, value] of item.meta) {
      const old = value.trim();
      if (key !== '_wp_old_slug' || old === '' || at < 0) continue;
      const moved = [...segments];
      moved[at] = old;
      paths.push(`${moved.join('/')}${permalink.search}`);
    }
  }
  return [...new Set(paths)];
}
