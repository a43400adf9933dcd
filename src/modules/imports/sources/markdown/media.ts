import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { MediaRef } from '../../import-source.js';

/*
 * Where an image a Markdown file names lies in the folder. Only files inside the folder are read: a path is
 * resolved, its real path (symlinks followed) must still be under the folder's real path, and it must be a file.
 * Remote images (http, https, protocol-relative, data:) are never downloaded.
 */

/** Folders a generator copies to the site's root as they are: `/images/x.png` lies in one of them. */
const STATIC_FOLDERS = ['static', 'public'];

export class MediaFolder {
  constructor(
    /** The folder's real path. */
    readonly root: string,
  ) {}

  /** The real path of `candidate` when it is a file inside the root; else null. */
  private inside(candidate: string): string | null {
    try {
      const real = realpathSync(candidate);
      const relative = path.relative(this.root, real);
      if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return null;
      return statSync(real).isFile() ? real : null;
    } catch {
      return null;
    }
  }

  /**
   * The file a source names, read as Markdown readers do: a relative path against the Markdown file's folder
   * (`fileFolder`, absolute) then the root, a site-absolute `/x` against the root then the static folders.
   */
  find(src: string, fileFolder?: string): string | null {
    const local = localPath(src);
    if (local === null) return null;
    const bases = local.startsWith('/')
      ? [this.root, ...STATIC_FOLDERS.map((folder) => path.join(this.root, folder))]
      : [...(fileFolder === undefined ? [] : [fileFolder]), this.root];
    for (const base of bases) {
      const found = this.inside(path.join(base, local));
      if (found !== null) return found;
    }
    return null;
  }

  /** The root-relative form of a file inside the root, with `/` separators and a leading `/`. */
  rootPath(file: string): string {
    return `/${path.relative(this.root, file).split(path.sep).join('/')}`;
  }

  /** The reference of a source, keyed by its file's path relative to the root; null when not in the folder. */
  locate(src: string, fileFolder?: string): MediaRef | null {
    const file = this.find(src, fileFolder);
    return file === null ? null : { key: this.rootPath(file).slice(1), origin: { kind: 'file', path: file } };
  }
}

/** Sources that name another host or carry their bytes: never read from the folder. */
export function isRemote(src: string): boolean {
  return /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(src.trim());
}

/** A source as a path of the folder: query and fragment dropped, percent-escapes decoded; null for a remote one. */
export function localPath(src: string): string | null {
  const trimmed = src.trim();
  if (trimmed === '' || isRemote(trimmed)) return null;
  const bare = trimmed.replace(/[?#].*$/s, '');
  let decoded: string;
  try {
    decoded = decodeURIComponent(bare);
  } catch {
    decoded = bare;
  }
  return decoded.includes('\u0000') || decoded === '' ? null : decoded;
}
