import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { badRequest } from '../../../../errors.js';
import type { ImportItem, ImportSource, SourceNote } from '../../import-source.js';
import { readEntry } from './entry.js';
import { MediaFolder } from './media.js';
import { collectTaxonomy } from './taxonomy.js';
import { markdownFiles, type WalkNotes } from './walk.js';

/*
 * A folder of Markdown files with front matter, as Hugo, Jekyll, Eleventy and Astro keep their content. Each read
 * of the items walks the folder twice: once for the front matter alone (the authors, categories and tags, which
 * come first), once for the entries, one file at a time. docs/imports-markdown.md has the mapping.
 */

export interface MarkdownSourceOptions {
  /** The ledger's scope; the folder's name when not given. */
  site?: string;
}

async function isFolder(folder: string): Promise<boolean> {
  try {
    return (await stat(folder)).isDirectory();
  } catch {
    return false;
  }
}

export async function openMarkdownSource(dir: string, options: MarkdownSourceOptions = {}): Promise<ImportSource> {
  let root: string;
  try {
    root = await realpath(dir);
    if (!(await stat(root)).isDirectory()) throw new Error('not a folder');
  } catch {
    throw badRequest(`${dir} is not a folder that can be read`);
  }
  const folder = new MediaFolder(root);
  const jekyll = await isFolder(path.join(root, '_posts'));
  let walkNotes: WalkNotes = { symlinks: [] };

  async function* items(): AsyncGenerator<ImportItem> {
    walkNotes = { symlinks: [] };
    const taxonomy = await collectTaxonomy(markdownFiles(root), jekyll);
    yield* taxonomy.authors.values();
    yield* taxonomy.categories.values();
    yield* taxonomy.tags.values();
    const context = { folder, jekyll, now: new Date() };
    for await (const file of markdownFiles(root, walkNotes)) yield await readEntry(file, context);
  }

  return {
    format: 'markdown',
    site: options.site ?? path.basename(path.resolve(dir)),
    items,
    locateMedia: (src) => folder.locate(src),
    async entryCount() {
      let count = 0;
      for await (const _ of markdownFiles(root)) count += 1;
      return count;
    },
    sourceNotes(): SourceNote[] {
      const notes: SourceNote[] = [];
      if (walkNotes.symlinks.length > 0)
        notes.push({
          message: `${walkNotes.symlinks.length} symbolic link(s) skipped, never followed: ${walkNotes.symlinks
            .slice(0, 20)
            .join(', ')}${walkNotes.symlinks.length > 20 ? ', …' : ''}`,
        });
      return notes;
    },
    async close() {},
  };
}
