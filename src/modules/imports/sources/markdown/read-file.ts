import { readFile, stat } from 'node:fs/promises';
import { FrontMatterError, splitFrontMatter, type SplitFile } from './front-matter.js';
import type { MarkdownFile } from './walk.js';

/** A file larger is not read: no post's Markdown comes near it, and it would be held whole in memory. */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;

export interface ReadFile extends SplitFile {
  /** The file's text as stored (a leading byte order mark dropped): the body's fingerprint. */
  content: string;
}

/** A file's front matter and body, or the reason it cannot be read, naming its path and the line. */
export async function readMarkdownFile(file: MarkdownFile): Promise<ReadFile | { error: string }> {
  try {
    const { size } = await stat(file.path);
    if (size > MAX_FILE_BYTES)
      return { error: `${file.relative} is ${size} bytes, over the limit of ${MAX_FILE_BYTES} for one file` };
    const content = (await readFile(file.path, 'utf8')).replace(/^\uFEFF/, '');
    return { content, ...splitFrontMatter(content.replace(/\r\n?/g, '\n')) };
  } catch (error) {
    if (error instanceof FrontMatterError) return { error: `${file.relative}: front matter, ${error.message}` };
    return { error: `${file.relative} could not be read: ${(error as Error).message}` };
  }
}
