// @ts-check
import fs from 'node:fs';
import path from 'node:path';

/**
 * What the site knows of Quire between builds: every published post and page, the authors, tags, categories,
 * redirects, site settings and the media they name, the feeds and sitemaps as the site serves them, and the change
 * feed's cursor they are current to. Pages are rendered from it, so a build reads no API at all.
 *
 * @typedef {Record<string, any>} Item
 * @typedef {object} Store
 * @property {number} version
 * @property {string} cursor       the change feed's cursor the content is current to
 * @property {string} syncedAt
 * @property {Item} settings
 * @property {Record<string, Item>} posts
 * @property {Record<string, Item>} pages
 * @property {Record<string, Item>} authors
 * @property {Record<string, Item>} tags
 * @property {Record<string, Item>} categories
 * @property {Record<string, Item>} media
 * @property {Item[]} redirects
 * @property {Record<string, string>} files  site path → text (feeds, sitemaps)
 */

export const STORE_VERSION = 1;

/** @param {string} dataDir */
export const storeFile = (dataDir) => path.join(dataDir, 'store.json');

/** @param {string} dataDir @returns {Store | null} */
export function readStore(dataDir) {
  const file = storeFile(dataDir);
  if (!fs.existsSync(file)) return null;
  const store = JSON.parse(fs.readFileSync(file, 'utf8'));
  return store.version === STORE_VERSION ? store : null;
}

/**
 * Written whole and renamed into place, so a build or a server never reads half a store.
 * @param {string} dataDir @param {Store} store
 */
export function writeStore(dataDir, store) {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = storeFile(dataDir);
  const next = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(next, JSON.stringify(store));
  fs.renameSync(next, file);
}

/** @returns {Store} */
export function emptyStore() {
  return {
    version: STORE_VERSION,
    cursor: '',
    syncedAt: new Date(0).toISOString(),
    settings: {},
    posts: {},
    pages: {},
    authors: {},
    tags: {},
    categories: {},
    media: {},
    redirects: [],
    files: {},
  };
}
