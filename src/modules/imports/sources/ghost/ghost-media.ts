import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { MediaRef } from '../../import-source.js';

/*
 * Where an image a Ghost export names can be read from. Ghost writes its own images as
 * `__GHOST_URL__/content/images/2024/01/x.jpg` (the placeholder standing for the site's URL) or with the site's
 * URL itself, and serves resized copies under `/content/images/size/w600/…`: every form of one image names the
 * original, under one key. Images of other hosts are not fetched: the runner downloads only from the source
 * site's own host.
 */

const PLACEHOLDER = '__GHOST_URL__';
const IMAGES = 'content/images/';
/** Ghost's resized and re-encoded copies: `size/w600/`, `size/h400/`, `size/w600h400/`, then `format/webp/`. */
const RESIZED = /^size\/(?:w\d+h\d+|w\d+|h\d+)\/(?:format\/[a-z0-9]+\/)?/i;

function decode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

const isFile = (path: string) => existsSync(path) && statSync(path).isFile();

export class GhostMedia {
  /**
   * @param siteUrl the site's URL (its settings' `url`), or null when the export does not say it.
   * @param contentRoot the folder holding an unpacked zip's `content/`, or null for a bare JSON file.
   */
  constructor(
    private readonly siteUrl: URL | null,
    private readonly contentRoot: string | null,
  ) {}

  /** The path of `src` from the site's root (`content/images/…`, no leading slash), or null for another host. */
  private sitePath(src: string): string | null {
    let path: string;
    if (src.startsWith(PLACEHOLDER)) path = src.slice(PLACEHOLDER.length);
    else if (src.startsWith('/') && !src.startsWith('//')) path = src;
    else {
      let url: URL;
      try {
        url = new URL(src.startsWith('//') ? `https:${src}` : src);
      } catch {
        return null;
      }
      const site = this.siteUrl;
      if (site === null || url.host.toLowerCase() !== site.host.toLowerCase()) return null;
      if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
      const base = site.pathname.replace(/\/+$/, '');
      if (base !== '' && url.pathname !== base && !url.pathname.startsWith(`${base}/`)) return null;
      path = url.pathname.slice(base.length);
    }
    path = path.replace(/[?#].*$/s, '').replace(/^\/+/, '');
    return path === '' ? null : path;
  }

  locate(raw: string): MediaRef | null {
    const src = raw.trim();
    const path = this.sitePath(src);
    if (path === null) return null;
    const written = path.startsWith(IMAGES) ? IMAGES + path.slice(IMAGES.length).replace(RESIZED, '') : path;
    const relative = decode(written);
    const segments = relative.split('/');
    if (segments.some((segment) => segment === '..' || segment === '.' || segment.includes('\\') || segment === ''))
      return null;
    const key = relative.startsWith(IMAGES) ? relative.slice(IMAGES.length) : relative;
    if (this.contentRoot !== null) {
      const file = join(this.contentRoot, ...segments);
      if (isFile(file)) return { key, origin: { kind: 'file', path: file } };
    }
    if (this.siteUrl === null) return null;
    const url = new URL(`${this.siteUrl.pathname.replace(/\/+$/, '')}/${written}`, this.siteUrl).toString();
    return { key, origin: { kind: 'url', url } };
  }
}
