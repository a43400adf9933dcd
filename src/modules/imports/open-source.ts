import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { badRequest } from '../../errors.js';
import type { ImportFormat, ImportSource } from './import-source.js';
import { openGhostSource } from './sources/ghost/ghost-source.js';
import { openMarkdownSource } from './sources/markdown/markdown-source.js';
import { openWordPressSource } from './sources/wordpress/wordpress-source.js';
import { unpackZip } from './zip.js';

export interface OpenSourceOptions {
  format: ImportFormat;
  /** The export file, or a Markdown folder (or its zip). */
  path: string;
  /** A scratch folder of the caller's, removed by the caller after `close()`: where zips are unpacked. */
  workDir: string;
  /** WordPress: the site's wp-content/uploads folder, read before anything is downloaded. */
  uploadsDir?: string | null;
  /** Ghost: its redirects.json or redirects.yaml. */
  redirectsFile?: string | null;
  /** Ghost: each post's primary tag becomes its category. */
  primaryTagAsCategory?: boolean;
  /** Markdown: the site's name in the ledger (else the folder's). */
  site?: string | null;
}

async function kindOf(file: string): Promise<'file' | 'directory'> {
  try {
    return (await stat(file)).isDirectory() ? 'directory' : 'file';
  } catch {
    throw badRequest(`${file} does not exist or cannot be read`);
  }
}

/** The reader of a format, opened on what the command line or the dashboard was given. */
export async function openImportSource(options: OpenSourceOptions): Promise<ImportSource> {
  const kind = await kindOf(options.path);
  switch (options.format) {
    case 'ghost':
      if (kind !== 'file') throw badRequest(`${options.path} is a folder: give the Ghost export's .json or .zip`);
      return openGhostSource(options.path, {
        primaryTagAsCategory: options.primaryTagAsCategory ?? false,
        redirectsFile: options.redirectsFile ?? null,
        workDir: options.workDir,
      });
    case 'wordpress':
      if (kind !== 'file') throw badRequest(`${options.path} is a folder: give the WordPress export's .xml`);
      return openWordPressSource(options.path, { uploadsDir: options.uploadsDir ?? null });
    case 'markdown': {
      let dir = options.path;
      if (kind === 'file') {
        dir = path.join(options.workDir, 'markdown');
        await mkdir(dir, { recursive: true });
        await unpackZip(options.path, dir);
      }
      const site = options.site ?? path.basename(options.path).replace(/\.zip$/i, '');
      return openMarkdownSource(dir, { site });
    }
  }
}
