import type { ConversionNote } from '@quire/blocks';
import type { ImportEntry, ImportFailure, ImportSeo, MediaRef } from '../../import-source.js';
import { ghostBody } from './ghost-body.js';
import type { Row } from './ghost-json.js';
import type { GhostMedia } from './ghost-media.js';
import { text, type GhostTables } from './ghost-tables.js';
import { htmlText, storable } from './ghost-text.js';

/*
 * A row of Ghost's `posts` table (a post or a page) as an entry, completed from the relation tables read in the
 * first pass: its authors, its tags, its SEO (`posts_meta`, or the post's own columns in older exports).
 */

export interface EntryContext {
  tables: GhostTables;
  /** Ids of the tags a site shows (not internal, not `#`-named). */
  publicTags: ReadonlySet<string>;
  primaryTagAsCategory: boolean;
  media: GhostMedia;
}

/** Ghost's timestamps as ISO 8601 with an offset; the older `2019-01-01 10:00:00` form is UTC. */
export function isoDate(value: unknown): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? new Date(value).toISOString() : null;
  if (typeof value !== 'string' || value.trim() === '') return null;
  const local = /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d(?::\d\d(?:\.\d+)?)?$/.test(value.trim());
  const date = new Date(local ? `${value.trim().replace(' ', 'T')}Z` : value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

const nonEmpty = (value: unknown): string | undefined => {
  const found = text(value)?.trim();
  return found ? storable(found) : undefined;
};

/** `sent` is Ghost's status of a post sent by email only: it never was on the site, so it stays a draft here. */
function statusOf(post: Row): Pick<ImportEntry, 'status' | 'statusNote'> {
  const status = text(post.status) ?? 'draft';
  const visibility = text(post.visibility) ?? 'public';
  const members = visibility === 'public' ? undefined : `was members-only in Ghost (visibility ${visibility})`;
  switch (status) {
    case 'published':
      return { status: 'published', ...(members === undefined ? {} : { statusNote: members }) };
    case 'draft':
      return { status: 'draft' };
    case 'scheduled':
      return {
        status: 'draft',
        statusNote: `was scheduled in Ghost for ${isoDate(post.published_at) ?? 'a later date'}`,
      };
    case 'sent':
      return { status: 'draft', statusNote: 'was sent as a newsletter only in Ghost, never published on the site' };
    default:
      return { status: 'draft', statusNote: `had the status "${status}" in Ghost` };
  }
}

export function entryOf(post: Row, context: EntryContext): ImportEntry | ImportFailure {
  const id = text(post.id) ?? '';
  const title = storable(text(post.title) ?? '');
  const type = post.type === 'page' || post.page === true || post.page === 1 ? 'page' : 'post';
  const item = `${type} ${id} "${title}"`;
  if (id === '') return { type: 'failure', item, message: 'the row has no id' };
  const body = ghostBody(post);
  if ('error' in body) return { type: 'failure', item, message: body.error };

  const notes: ConversionNote[] = [];
  const meta = context.tables.postsMeta.get(id) ?? post;
  const locate = (field: string, src: unknown): MediaRef | null | undefined => {
    const value = nonEmpty(src);
    if (value === undefined) return undefined;
    const ref = context.media.locate(value);
    if (ref === null) notes.push({ kind: 'unresolved-image', element: field, excerpt: value.slice(0, 120) });
    return ref;
  };

  let categorySourceIds: string[] = [];
  let tagSourceIds: string[] = [];
  if (type === 'post') {
    tagSourceIds = (context.tables.postsTags.get(id) ?? [])
      .map((tag) => tag.tagId)
      .filter((tagId) => context.publicTags.has(tagId));
    // Ghost's primary tag is the first public one.
    if (context.primaryTagAsCategory && tagSourceIds.length > 0) {
      categorySourceIds = tagSourceIds.slice(0, 1);
      tagSourceIds = tagSourceIds.slice(1);
    }
  }
  const authors = context.tables.postsAuthors.get(id) ?? [text(post.author_id)].filter((a): a is string => !!a);

  const featured = locate('feature_image', post.feature_image);
  const alt = nonEmpty(meta.feature_image_alt ?? post.feature_image_alt);
  const caption = text(meta.feature_image_caption ?? post.feature_image_caption);
  const featuredImage =
    featured === undefined || featured === null
      ? featured
      : {
          ...featured,
          ...(alt === undefined ? {} : { alt }),
          ...(caption === null || htmlText(caption) === '' ? {} : { caption: htmlText(caption) }),
        };

  const seo: ImportSeo = {};
  const seoTitle = nonEmpty(meta.meta_title ?? post.meta_title);
  const description = nonEmpty(meta.meta_description ?? post.meta_description);
  const canonicalUrl = nonEmpty(post.canonical_url ?? meta.canonical_url);
  if (seoTitle !== undefined) seo.title = seoTitle;
  if (description !== undefined) seo.description = description;
  if (canonicalUrl !== undefined) seo.canonicalUrl = canonicalUrl;
  for (const network of ['og', 'twitter'] as const) {
    const social = {
      title: nonEmpty(meta[`${network}_title`] ?? post[`${network}_title`]),
      description: nonEmpty(meta[`${network}_description`] ?? post[`${network}_description`]),
      image: locate(`${network}_image`, meta[`${network}_image`] ?? post[`${network}_image`]),
    };
    const present = Object.fromEntries(Object.entries(social).filter(([, value]) => value !== undefined));
    if (Object.keys(present).length > 0) seo[network] = present;
  }

  const slug = nonEmpty(post.slug);
  const excerpt = nonEmpty(post.custom_excerpt);
  return {
    type,
    sourceId: id,
    title,
    ...(slug === undefined ? {} : { slug }),
    ...(excerpt === undefined ? {} : { excerpt }),
    ...statusOf(post),
    publishedAt: isoDate(post.published_at),
    body: body.body,
    authorSourceIds: authors,
    categorySourceIds,
    tagSourceIds,
    ...(featuredImage === undefined ? {} : { featuredImage }),
    ...(Object.keys(seo).length === 0 ? {} : { seo }),
    // Ghost's default permalink, for posts and pages alike.
    oldPaths: slug === undefined ? [] : [`/${slug}/`],
    notes,
  };
}
