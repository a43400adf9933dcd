import { basename } from 'node:path';
import type {
  ImportAuthor,
  ImportCategory,
  ImportItem,
  ImportSource,
  ImportTag,
  SourceNote,
} from '../../import-source.js';
import { mediaLocator } from './media.js';
import { storableText } from './storable.js';
import { entryOf } from './wxr-entry.js';
import { indexWxr, type TermRecord, type WxrIndex } from './wxr-index.js';
import { readWxr } from './wxr-reader.js';

/*
 * `quire import wordpress FILE.xml`: a WordPress export (WXR 1.0 to 1.2) as an import source. Opening reads the
 * file once through (the index: attachments, terms, authors, counts), so a file that is no export, or is not
 * well-formed, is refused before anything is written; each `items()` reads it again and yields each entry as its
 * item completes.
 */

export interface WordPressSourceOptions {
  /** A copy of the site's `wp-content/uploads` folder: images are read from it before they are downloaded. */
  uploadsDir?: string | null;
}

const decode = (slug: string) => {
  try {
    return decodeURIComponent(slug);
  } catch {
    return slug;
  }
};

function authorItem(login: string, displayName: string): ImportAuthor {
  const slug = login.toLowerCase();
  return {
    type: 'author',
    sourceId: login,
    ...(/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug) ? { slug } : {}),
    displayName: storableText(displayName),
    sameAs: [],
  };
}

/** Categories, each parent before its children; a parent the file lacks, or a loop, leaves one at the top. */
function categoriesInOrder(index: WxrIndex, notes: SourceNote[]): ImportCategory[] {
  const out: ImportCategory[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const place = (term: TermRecord) => {
    if (placed.has(term.slug)) return;
    const parent = term.parent === '' ? undefined : index.categories.get(term.parent);
    let parentSourceId: string | null = null;
    if (parent !== undefined && !visiting.has(parent.slug)) {
      visiting.add(term.slug);
      place(parent);
      visiting.delete(term.slug);
      parentSourceId = parent.slug;
    } else if (term.parent !== '')
      notes.push({
        message: `Category "${term.name}": its parent "${term.parent}" is not in the export (or loops): imported at the top`,
      });
    placed.add(term.slug);
    out.push({
      type: 'category',
      sourceId: term.slug,
      slug: decode(term.slug),
      name: storableText(term.name),
      ...(term.description === '' ? {} : { description: storableText(term.description) }),
      parentSourceId,
    });
  };
  for (const term of index.categories.values()) place(term);
  return out;
}

function tagItem(term: TermRecord): ImportTag {
  return { type: 'tag', sourceId: term.slug, slug: decode(term.slug), name: storableText(term.name) };
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

function summaryNotes(index: WxrIndex): SourceNote[] {
  const notes: SourceNote[] = [];
  const undeclared = (map: Map<string, { declared: boolean }>) =>
    [...map.values()].filter((record) => !record.declared).length;
  for (const [why, count] of index.skipped) {
    if (why === 'attachment')
      notes.push({
        message: `${plural(count, 'attachment')} not imported as entries: their files are imported where an entry uses them`,
      });
    else if (why.startsWith('status '))
      notes.push({
        message: `${plural(count, 'post or page', 'posts and pages')} with status "${why.slice(7)}" skipped`,
      });
    else
      notes.push({ message: `${plural(count, 'item')} of type "${why}" skipped (only posts and pages are imported)` });
  }
  if (index.comments > 0)
    notes.push({ message: `${plural(index.comments, 'comment')} not imported (Quire has no comments)` });
  const authors = undeclared(index.authors);
  const categories = undeclared(index.categories);
  const tags = undeclared(index.tags);
  if (authors + categories + tags > 0)
    notes.push({
      message: `Named by entries but not declared in the export's header, imported from their names: ${plural(authors, 'author')}, ${plural(categories, 'category', 'categories')}, ${plural(tags, 'tag')}`,
    });
  if (index.stats.droppedChars > 0)
    notes.push({
      message: `${plural(index.stats.droppedChars, 'character')} no database can store (NUL, control characters) dropped`,
    });
  return notes;
}

export async function openWordPressSource(file: string, options: WordPressSourceOptions = {}): Promise<ImportSource> {
  const index = await indexWxr(file);
  const locator = mediaLocator(index, options.uploadsDir ?? null);
  const site = index.baseSiteUrl || index.baseBlogUrl || index.link || basename(file);
  const orderNotes: SourceNote[] = [];
  const categories = categoriesInOrder(index, orderNotes);

  return {
    format: 'wordpress',
    site,
    async *items(): AsyncIterable<ImportItem> {
      for (const author of index.authors.values()) yield authorItem(author.login, author.displayName);
      yield* categories;
      for (const tag of index.tags.values()) yield tagItem(tag);
      for await (const record of readWxr(file)) {
        if (record.kind !== 'item') continue;
        const entry = entryOf(record.item, { index, locator });
        if (entry !== null) yield entry;
      }
    },
    locateMedia: (src) => locator.locate(src),
    entryCount: () => Promise.resolve(index.entries),
    sourceNotes: () => [...summaryNotes(index), ...orderNotes],
    close: () => Promise.resolve(),
  };
}
