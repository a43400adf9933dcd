import { opendir } from 'node:fs/promises';
import path from 'node:path';

/*
 * The Markdown files of a folder, in a stable order (names sorted by code point, a folder's files before its
 * subfolders), so that every read of the folder yields its items in the same order.
 */

export const MARKDOWN_EXTENSIONS = new Set(['.md', '.markdown', '.mdx']);

/**
 * Folders that hold no content: the generators' output (`_site`, `public`, `dist`), dependencies, and their
 * templates (Hugo's archetypes hold Markdown whose front matter is a template, not data).
 */
const SKIPPED_FOLDERS = new Set(['node_modules', '_site', 'public', 'dist', 'archetypes', 'layouts', 'themes']);

export interface WalkNotes {
  /** Symbolic links met (root-relative paths): never followed, so nothing outside the folder is read. */
  symlinks: string[];
}

export interface MarkdownFile {
  /** Absolute. */
  path: string;
  /** Relative to the root, with `/` separators: the entry's source id. */
  relative: string;
}

async function sortedEntries(folder: string) {
  const entries = [];
  for await (const entry of await opendir(folder)) entries.push(entry);
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export async function* markdownFiles(root: string, notes?: WalkNotes): AsyncGenerator<MarkdownFile> {
  const folders: string[] = [''];
  while (folders.length > 0) {
    const relativeFolder = folders.shift()!;
    const entries = await sortedEntries(path.join(root, relativeFolder));
    const subfolders: string[] = [];
    for (const entry of entries) {
      const relative = relativeFolder === '' ? entry.name : `${relativeFolder}/${entry.name}`;
      if (entry.name.startsWith('.')) continue;
      if (entry.isSymbolicLink()) {
        notes?.symlinks.push(relative);
        continue;
      }
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) subfolders.push(relative);
      } else if (entry.isFile() && MARKDOWN_EXTENSIONS.has(path.extname(entry.name).toLowerCase()))
        yield { path: path.join(root, relative), relative };
    }
    // Depth first, in name order: a folder's subfolders are read before the folders after it.
    folders.unshift(...subfolders);
  }
}
