import { existsSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { MediaRef } from '../../import-source.js';
import type { Attachment, WxrIndex } from './wxr-index.js';

/*
 * Where an image a WordPress body or field names can be read from. Uploads live under `/wp-content/uploads/`, and
 * a body names them at a size WordPress made (`photo-300x200.jpg`): the original (`photo.jpg`) is imported once,
 * whatever size each body used, so the key is the upload's path without the size suffix.
 */

const UPLOADS = '/wp-content/uploads/';
/** `-300x200` just before the extension: the sizes WordPress makes of an upload. */
const SIZE_SUFFIX = /-\d{1,5}x\d{1,5}(?=\.[A-Za-z0-9]{2,5}$)/;
/** Jetpack's image CDN serves `i0.wp.com/<site host>/wp-content/uploads/…`. */
const PHOTON = /^i[0-3]\.wp\.com$/;

const bareHost = (host: string) => host.toLowerCase().replace(/^www\./, '');

function parseUrl(url: string, base?: string): URL | null {
  try {
    const parsed = new URL(url, base);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed : null;
  } catch {
    return null;
  }
}

function decodePath(path: string): string | null {
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}

export interface MediaLocator {
  locate(src: string): MediaRef | null;
  /** The attachment a source names (by its upload path), for its alt text and caption. */
  attachmentOf(src: string): Attachment | undefined;
  /** The upload path (the key) of a source, or null when it is not one of the site's uploads. */
  keyOf(src: string): string | null;
}

export function mediaLocator(index: WxrIndex, uploadsDir: string | null): MediaLocator {
  const base = index.baseSiteUrl || index.baseBlogUrl || index.link;
  const ownHosts = new Set(
    [index.baseSiteUrl, index.baseBlogUrl, index.link]
      .map((url) => parseUrl(url)?.hostname)
      .filter((host): host is string => host !== undefined && host !== '')
      .map(bareHost),
  );
  const uploadsRoot = uploadsDir === null ? null : resolve(uploadsDir);

  const byKey = new Map<string, Attachment>();
  for (const attachment of index.attachments.values()) {
    const key = attachment.file !== '' ? normalise(attachment.file) : upload(attachment.url)?.key;
    if (key !== undefined && key !== null && !byKey.has(key)) byKey.set(key, attachment);
  }

  /** The source's host (seen through the image CDN) and the path after the uploads folder, suffix and all. */
  function upload(src: string): { host: string; url: URL; path: string; key: string } | null {
    const url = parseUrl(src.trim(), base === '' ? undefined : base);
    if (url === null) return null;
    let host = bareHost(url.hostname);
    let pathname = url.pathname;
    if (PHOTON.test(host)) {
      const [first, ...rest] = pathname.split('/').filter(Boolean);
      if (first === undefined) return null;
      host = bareHost(first);
      pathname = `/${rest.join('/')}`;
    }
    const at = pathname.indexOf(UPLOADS);
    if (at < 0) return null;
    const path = decodePath(pathname.slice(at + UPLOADS.length));
    if (path === null) return null;
    const key = normalise(path);
    return key === null ? null : { host, url, path, key };
  }

  /** The file under the uploads folder, when it is one there (never outside it). */
  function fileAt(path: string): string | null {
    if (uploadsRoot === null) return null;
    const full = resolve(join(uploadsRoot, path));
    const inside = relative(uploadsRoot, full);
    if (inside === '' || inside.startsWith('..') || inside.startsWith(sep)) return null;
    return existsSync(full) && statSync(full).isFile() ? full : null;
  }

  function locate(src: string): MediaRef | null {
    const found = upload(src);
    if (found === null) return null;
    const own = ownHosts.has(found.host);
    if (!own) return null;
    const attachment = byKey.get(found.key);
    const details = {
      ...(attachment !== undefined && attachment.alt !== '' ? { alt: attachment.alt } : {}),
      ...(attachment !== undefined && attachment.caption !== '' ? { caption: attachment.caption } : {}),
    };
    const file = fileAt(found.key) ?? fileAt(found.path);
    if (file !== null) return { key: found.key, origin: { kind: 'file', path: file }, ...details };
    // The original, not the size the body used; through the image CDN, at the site itself.
    const original = PHOTON.test(bareHost(found.url.hostname))
      ? new URL(`${UPLOADS}${found.key.split('/').map(encodeURIComponent).join('/')}`, base)
      : new URL(found.url.href);
    original.pathname = original.pathname.replace(SIZE_SUFFIX, '');
    original.search = '';
    original.hash = '';
    return { key: found.key, origin: { kind: 'url', url: original.href }, ...details };
  }

  return {
    locate,
    attachmentOf: (src) => {
      const found = upload(src);
      return found === null ? undefined : byKey.get(found.key);
    },
    keyOf: (src) => upload(src)?.key ?? null,
  };
}

/** An upload path as a key: no leading slash, no `.` or `..` segment, the size suffix taken off. */
function normalise(path: string): string | null {
  const parts = path.split('/').filter((part) => part !== '' && part !== '.');
  if (parts.length === 0 || parts.includes('..')) return null;
  return parts.join('/').replace(SIZE_SUFFIX, '');
}
