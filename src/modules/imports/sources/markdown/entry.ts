import { markdownToBlocks, type ConversionNote } from '@quire/blocks';
import path from 'node:path';
import type { ImportEntry, ImportFailure, ImportSeo, MediaRef } from '../../import-source.js';
import { prepareBody } from './body.js';
import { datedName, parseDate } from './dates.js';
import { readFields, type ImageField } from './fields.js';
import { isRemote, type MediaFolder } from './media.js';
import { readMarkdownFile } from './read-file.js';
import { excerpt, nameId, storable } from './text.js';
import { slugFrom } from '../../../../shared/slug.js';
import type { MarkdownFile } from './walk.js';

/*
 * One Markdown file as a post or a page. What the front matter says wins; the file's place fills the gaps (its
 * name the slug and, for Jekyll, the date; its folder the type and, for Hugo's page bundles, the slug).
 */

export interface EntryContext {
  folder: MediaFolder;
  /** A Jekyll site (a `_posts` folder at the root): its files outside `_posts` and `_drafts` are pages. */
  jekyll: boolean;
  now: Date;
}

const EXTENSION = /\.(?:md|markdown|mdx)$/i;

/** The file's own name for the entry: its name without extension and date, or its folder's for an index. */
function fileName(file: MarkdownFile): { base: string; date?: string } {
  const parts = file.relative.split('/');
  const name = parts.at(-1)!.replace(EXTENSION, '');
  if ((name === 'index' || name === '_index') && parts.length > 1) return { base: parts.at(-2)! };
  const dated = datedName(name);
  return dated === null ? { base: name } : { base: dated.rest, date: dated.date };
}

export function isPage(file: MarkdownFile, page: boolean, jekyll: boolean): boolean {
  const parts = file.relative.split('/');
  const folders = parts.slice(0, -1);
  if (page || folders.some((folder) => folder === 'pages' || folder === '_pages')) return true;
  // Hugo's `_index.md` holds a section's own page (its list's introduction), never a post.
  if (EXTENSION.test(parts.at(-1)!) && parts.at(-1)!.replace(EXTENSION, '') === '_index') return true;
  return jekyll && !folders.includes('_posts') && !folders.includes('_drafts');
}

function featured(image: ImageField, file: MarkdownFile, context: EntryContext, notes: ConversionNote[]) {
  const ref: MediaRef | null = isRemote(image.src) ? null : context.folder.locate(image.src, path.dirname(file.path));
  if (ref === null) {
    notes.push({ kind: 'unresolved-image', element: 'featured-image', excerpt: excerpt(image.src) });
    return null;
  }
  return image.alt === undefined ? ref : { ...ref, alt: image.alt };
}

export async function readEntry(file: MarkdownFile, context: EntryContext): Promise<ImportEntry | ImportFailure> {
  const read = await readMarkdownFile(file);
  if ('error' in read) return { type: 'failure', item: `file ${file.relative}`, message: read.error };
  const fields = readFields(read.data);
  const own = fileName(file);
  const body = prepareBody(storable(read.body), {
    titleFromHeading: fields.title === undefined,
    mdx: file.relative.toLowerCase().endsWith('.mdx'),
    folder: context.folder,
    fileFolder: path.dirname(file.path),
  });
  const notes: ConversionNote[] = [];
  if (fields.unknownKeys.length > 0)
    notes.push({
      kind: 'unsupported',
      element: 'front-matter',
      excerpt: excerpt(`keys with no Quire field: ${fields.unknownKeys.join(', ')}`),
    });
  notes.push(...body.notes);

  const written = fields.date ?? own.date;
  const date = written === undefined ? null : parseDate(written);
  if (written !== undefined && date === null)
    notes.push({ kind: 'unsupported', element: 'date', excerpt: excerpt(String(written)) });
  const draft = fields.draft || file.relative.split('/').includes('_drafts');
  const scheduled = !draft && date !== null && date > context.now;

  const type = isPage(file, fields.page, context.jekyll) ? 'page' : 'post';
  if (type === 'page' && fields.categories.length + fields.tags.length > 0)
    notes.push({
      kind: 'unsupported',
      element: 'front-matter',
      excerpt: excerpt(`a page has no categories or tags: ${[...fields.categories, ...fields.tags].join(', ')}`),
    });
  const seo: ImportSeo = {
    ...(fields.description === undefined ? {} : { description: fields.description }),
    ...(fields.canonicalUrl === undefined ? {} : { canonicalUrl: fields.canonicalUrl }),
  };
  const prepared = body.markdown;
  return {
    type,
    sourceId: file.relative,
    title: fields.title ?? body.title ?? storable(own.base),
    slug: slugFrom(fields.slug ?? own.base, 'untitled'),
    ...(fields.description === undefined ? {} : { excerpt: fields.description }),
    status: draft || scheduled ? 'draft' : 'published',
    ...(scheduled ? { statusNote: 'scheduled' } : {}),
    publishedAt: date === null ? null : date.toISOString(),
    body: { convert: (options) => markdownToBlocks(prepared, options), fingerprint: read.content },
    authorSourceIds: fields.authors.map((author) => nameId('author', author.name)),
    categorySourceIds: type === 'post' ? fields.categories.map((name) => nameId('category', name)) : [],
    tagSourceIds: type === 'post' ? fields.tags.map((name) => nameId('tag', name)) : [],
    featuredImage: fields.image === undefined ? null : featured(fields.image, file, context, notes),
    ...(Object.keys(seo).length === 0 ? {} : { seo }),
    oldPaths: fields.oldPaths,
    notes,
  };
}
