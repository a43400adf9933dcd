import { htmlText } from './html-text.js';
import { readWxr, type WxrItem, type WxrReadStats } from './wxr-reader.js';

/*
 * The first pass over an export: what items refer to and the file names only once (attachments, the site's
 * addresses, the term ids a primary category is stored as), the authors and terms to write before any entry, and
 * the counts of what the second pass will skip. Only small maps: no body is kept.
 */

export interface Attachment {
  id: string;
  url: string;
  alt: string;
  caption: string;
  /** `_wp_attached_file`: the path under the uploads folder. */
  file: string;
  parent: string;
}

export interface AuthorRecord {
  login: string;
  displayName: string;
  declared: boolean;
}

export interface TermRecord {
  slug: string;
  name: string;
  description: string;
  /** The parent's slug, categories only. */
  parent: string;
  termId: string;
  declared: boolean;
}

export interface WxrIndex {
  title: string;
  description: string;
  link: string;
  baseSiteUrl: string;
  baseBlogUrl: string;
  authors: Map<string, AuthorRecord>;
  categories: Map<string, TermRecord>;
  tags: Map<string, TermRecord>;
  /** Category slug by term id (Yoast and Rank Math store a primary category by its id). */
  categoryByTermId: Map<string, string>;
  attachments: Map<string, Attachment>;
  /** Attachment ids by the post they were uploaded to (a `[gallery]` with no ids shows these). */
  attachmentsByParent: Map<string, string[]>;
  entries: number;
  /** Items not imported, by why (`attachment`, `revision`, `status trash`…). */
  skipped: Map<string, number>;
  comments: number;
  stats: WxrReadStats;
}

export const ENTRY_TYPES = new Set(['post', 'page']);
export const SKIPPED_STATUSES = new Set(['trash', 'auto-draft', 'inherit']);

const metaOf = (item: WxrItem, key: string): string | undefined => item.meta.find(([name]) => name === key)?.[1];

/** An item's terms of one taxonomy, as `<category domain=… nicename=…>` names them. */
export const termsOf = (item: WxrItem, domain: string) =>
  item.terms.filter((term) => term.domain === domain && (term.nicename !== '' || term.name !== ''));

/** A co-author's login: Co-Authors Plus names its term after the login and slugs it `cap-<nicename>`. */
export const coAuthorLogin = (term: { nicename: string; name: string }) =>
  term.name.trim() !== '' ? term.name.trim() : term.nicename.replace(/^cap-/, '');

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

export async function indexWxr(file: string): Promise<WxrIndex> {
  const index: WxrIndex = {
    title: '',
    description: '',
    link: '',
    baseSiteUrl: '',
    baseBlogUrl: '',
    authors: new Map(),
    categories: new Map(),
    tags: new Map(),
    categoryByTermId: new Map(),
    attachments: new Map(),
    attachmentsByParent: new Map(),
    entries: 0,
    skipped: new Map(),
    comments: 0,
    stats: { droppedChars: 0 },
  };
  const field = (fields: Map<string, string>, name: string) => (fields.get(name) ?? '').trim();
  // WordPress stores names HTML-escaped (`Tom &amp; Jerry`) and titles may hold markup: their text is the name.
  const text = (fields: Map<string, string>, name: string) => htmlText(field(fields, name));
  const referenced = (map: Map<string, TermRecord>, slug: string, name: string) => {
    if (slug === '' || map.has(slug)) return;
    map.set(slug, { slug, name: htmlText(name) || slug, description: '', parent: '', termId: '', declared: false });
  };

  for await (const record of readWxr(file, index.stats)) {
    if (record.kind === 'channel') {
      if (record.name === 'title') index.title = record.value.trim();
      else if (record.name === 'description') index.description = record.value.trim();
      else if (record.name === 'link') index.link = record.value.trim();
      else if (record.name === 'wp:base_site_url') index.baseSiteUrl = record.value.trim();
      else if (record.name === 'wp:base_blog_url') index.baseBlogUrl = record.value.trim();
    } else if (record.kind === 'author') {
      const login = field(record.fields, 'wp:author_login');
      if (login === '') continue;
      const full = `${text(record.fields, 'wp:author_first_name')} ${text(record.fields, 'wp:author_last_name')}`;
      const displayName = text(record.fields, 'wp:author_display_name') || full.trim() || login;
      index.authors.set(login, { login, displayName, declared: true });
    } else if (record.kind === 'term') {
      const fields = record.fields;
      const termId = field(fields, 'wp:term_id');
      if (record.element === 'wp:category') {
        const slug = field(fields, 'wp:category_nicename');
        if (slug === '') continue;
        index.categories.set(slug, {
          slug,
          name: text(fields, 'wp:cat_name') || slug,
          description: text(fields, 'wp:category_description'),
          parent: field(fields, 'wp:category_parent'),
          termId,
          declared: true,
        });
        if (termId !== '') index.categoryByTermId.set(termId, slug);
      } else if (record.element === 'wp:tag') {
        const slug = field(fields, 'wp:tag_slug');
        if (slug === '') continue;
        index.tags.set(slug, {
          slug,
          name: text(fields, 'wp:tag_name') || slug,
          description: text(fields, 'wp:tag_description'),
          parent: '',
          termId,
          declared: true,
        });
      }
    } else {
      const item = record.item;
      const type = field(item.fields, 'wp:post_type') || 'post';
      const status = field(item.fields, 'wp:status');
      const id = field(item.fields, 'wp:post_id');
      if (type === 'attachment') {
        bump(index.skipped, 'attachment');
        if (id === '') continue;
        const parent = field(item.fields, 'wp:post_parent');
        index.attachments.set(id, {
          id,
          url: field(item.fields, 'wp:attachment_url') || field(item.fields, 'guid'),
          alt: htmlText(metaOf(item, '_wp_attachment_image_alt') ?? ''),
          caption: htmlText(field(item.fields, 'excerpt:encoded')),
          file: (metaOf(item, '_wp_attached_file') ?? '').trim(),
          parent,
        });
        if (parent !== '' && parent !== '0')
          index.attachmentsByParent.set(parent, [...(index.attachmentsByParent.get(parent) ?? []), id]);
        continue;
      }
      if (!ENTRY_TYPES.has(type)) {
        bump(index.skipped, type);
        continue;
      }
      if (SKIPPED_STATUSES.has(status)) {
        bump(index.skipped, `status ${status}`);
        continue;
      }
      index.entries += 1;
      index.comments += item.comments;
      const creator = field(item.fields, 'dc:creator');
      if (creator !== '' && !index.authors.has(creator))
        index.authors.set(creator, { login: creator, displayName: creator, declared: false });
      for (const term of termsOf(item, 'author')) {
        const login = coAuthorLogin(term);
        if (login !== '' && !index.authors.has(login))
          index.authors.set(login, { login, displayName: login, declared: false });
      }
      if (type !== 'post') continue;
      for (const term of termsOf(item, 'category')) referenced(index.categories, term.nicename, term.name);
      for (const term of termsOf(item, 'post_tag')) referenced(index.tags, term.nicename, term.name);
    }
  }
  return index;
}
