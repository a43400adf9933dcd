// @ts-check
import { QuireContent, QuireError } from '@quire/client';
import { siteEnv } from './env.mjs';
import { emptyStore, readStore, writeStore } from './store.mjs';
import { fetchFiles } from './files.mjs';

/**
 * The site's copy of Quire, kept current from the change feed: the first sync reads everything, every later one
 * reads the events since its cursor and then only what they name, so a rebuild after one edit costs the same few
 * requests whatever the number of posts.
 *
 * @typedef {import('./store.mjs').Store} Store
 * @typedef {import('./store.mjs').Item} Item
 * @typedef {{ requests: number, bytes: number }} Traffic
 * @typedef {{ full: boolean, events: number, fetched: number, removed: number, requests: number, bytes: number,
 *   seconds: number, changed: boolean }} SyncReport
 */

/** How many reads of single items run at once. */
const CONCURRENCY = 8;

/** A fetch that counts the requests it sends and the bytes of the bodies it receives. @param {Traffic} traffic */
function countingFetch(traffic) {
  /** @type {typeof fetch} */
  const counted = async (input, init) => {
    traffic.requests += 1;
    const response = await fetch(input, init);
    const body = await response.arrayBuffer();
    traffic.bytes += body.byteLength;
    return new Response(response.status === 304 || response.status === 204 ? null : body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
  return counted;
}

/** @param {unknown} error */
const isNotFound = (error) => error instanceof QuireError && error.status === 404;

/**
 * @template T, R
 * @param {T[]} items @param {(item: T) => Promise<R>} work
 * @returns {Promise<R[]>}
 */
async function eachLimited(items, work) {
  /** @type {R[]} */
  const results = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
  return results;
}

/** @template T @param {AsyncIterable<T>} items */
async function all(items) {
  /** @type {T[]} */
  const out = [];
  for await (const item of items) out.push(item);
  return out;
}

/** @param {Item[]} items @returns {Record<string, Item>} */
const byId = (items) => Object.fromEntries(items.map((item) => [item.id, item]));

/** A post or page as the site keeps it: its plain text is the API's, not the site's, business. @param {Item} item */
function kept(item) {
  const { bodyText: _bodyText, ...rest } = item;
  return rest;
}

/** The media ids an item names beside what its answer embeds (Open Graph and Twitter images). @param {Item} item */
function socialImageIds(item) {
  return [item.seo?.og?.imageMediaId, item.seo?.twitter?.imageMediaId].filter((id) => typeof id === 'string');
}

/** Every media id an item shows. @param {Item} item */
function mediaIdsOf(item) {
  const ids = new Set(socialImageIds(item));
  if (item.featuredMediaId) ids.add(item.featuredMediaId);
  if (item.avatarMediaId) ids.add(item.avatarMediaId);
  for (const block of item.bodyJson ?? []) if (block.type === 'image' && block.mediaId) ids.add(block.mediaId);
  return ids;
}

/**
 * The media a store names that no answer in it embeds (social images, most often the featured image again; the
 * logo), to read by id.
 * @param {Store} store
 */
function missingMedia(store) {
  const items = [...Object.values(store.posts), ...Object.values(store.pages)];
  const held = new Set(Object.keys(store.media));
  for (const item of [...items, ...Object.values(store.authors)])
    for (const media of [item.featuredMedia, item.avatarMedia]) if (media?.id) held.add(media.id);
  if (store.settings.logo?.id) held.add(store.settings.logo.id);
  const wanted = new Set(items.flatMap(socialImageIds));
  if (store.settings.logoMediaId) wanted.add(store.settings.logoMediaId);
  return [...wanted].filter((id) => !held.has(id));
}

/** @param {QuireContent} content @param {Store} store @param {string[]} ids */
async function fetchMedia(content, store, ids) {
  await eachLimited(ids, async (id) => {
    try {
      store.media[id] = await content.media.get(id);
    } catch (error) {
      if (!isNotFound(error)) throw error;
      delete store.media[id];
    }
  });
}

/** @param {QuireContent} content @param {string | undefined} fallbackOrigin */
async function fullSync(content, fallbackOrigin) {
  // The head is read first: whatever is written while the rest is read is replayed by the next sync.
  const { head } = await content.changes.list({ limit: 1 });
  const store = emptyStore();
  const [settings, posts, pages, authors, tags, categories, redirects] = await Promise.all([
    content.siteSettings.get(),
    all(content.posts.iterate()),
    all(content.pages.iterate()),
    all(content.authors.iterate()),
    all(content.tags.iterate()),
    all(content.categories.iterate()),
    all(content.redirects.iterate()),
  ]);
  Object.assign(store, {
    cursor: head,
    settings,
    posts: byId(posts.map(kept)),
    pages: byId(pages.map(kept)),
    authors: byId(authors),
    tags: byId(tags),
    categories: byId(categories),
    redirects,
  });
  await fetchMedia(content, store, missingMedia(store));
  store.files = await fetchFiles(content, store, fallbackOrigin);
  return { store, fetched: posts.length + pages.length, removed: 0, events: 0 };
}

/** @typedef {'post' | 'page' | 'author' | 'tag' | 'category'} Refetched */
/**
 * @typedef {'posts' | 'pages' | 'authors' | 'tags' | 'categories'} Bucket
 * @type {Record<Refetched, { bucket: Bucket, get: (c: QuireContent, id: string) => Promise<Item> }>}
 */
const KINDS = {
  post: { bucket: 'posts', get: (c, id) => c.posts.get(id).then(kept) },
  page: { bucket: 'pages', get: (c, id) => c.pages.get(id).then(kept) },
  author: { bucket: 'authors', get: (c, id) => c.authors.get(id) },
  tag: { bucket: 'tags', get: (c, id) => c.tags.get(id) },
  category: { bucket: 'categories', get: (c, id) => c.categories.get(id) },
};

/**
 * The events since the store's cursor, applied: each item they name read again by id (gone or not published: a
 * 404, so removed), media changes read again with the posts, pages and authors that show them, and the redirects,
 * settings, feeds and sitemaps when anything moved. Null when the cursor is older than the feed keeps.
 *
 * @param {QuireContent} content @param {Store} store @param {string | undefined} fallbackOrigin
 */
async function incrementalSync(content, store, fallbackOrigin) {
  /** @type {Array<{ type: string, id: string }>} */
  const events = [];
  let after = store.cursor;
  for (;;) {
    let page;
    try {
      page = await content.changes.list({ after, limit: 1000 });
    } catch (error) {
      if (error instanceof QuireError && error.details?.reason === 'cursor_expired') return null;
      throw error;
    }
    events.push(...page.data);
    after = page.next;
    if (!page.hasMore) break;
  }
  if (events.length === 0) return { store, fetched: 0, removed: 0, events: 0 };

  /** @type {Set<string>} */
  const wanted = new Set();
  const media = new Set();
  let settings = false;
  let redirects = false;
  for (const event of events) {
    if (event.type in KINDS) wanted.add(`${event.type}:${event.id}`);
    else if (event.type === 'media') media.add(event.id);
    else if (event.type === 'settings') settings = true;
    else if (event.type === 'redirect') redirects = true;
  }
  if (media.size > 0) {
    for (const [type, bucket] of /** @type {const} */ ([
      ['post', 'posts'],
      ['page', 'pages'],
      ['author', 'authors'],
    ]))
      for (const item of Object.values(store[bucket]))
        if ([...mediaIdsOf(item)].some((id) => media.has(id))) wanted.add(`${type}:${item.id}`);
  }
  let fetched = 0;
  let removed = 0;
  await eachLimited([...wanted], async (key) => {
    const [type, id] = /** @type {[Refetched, string]} */ (key.split(':'));
    const kind = KINDS[type];
    try {
      store[kind.bucket][id] = await kind.get(content, id);
      fetched += 1;
    } catch (error) {
      if (!isNotFound(error)) throw error;
      if (id in store[kind.bucket]) removed += 1;
      delete store[kind.bucket][id];
    }
  });
  [store.settings, store.redirects] = await Promise.all([
    settings ? content.siteSettings.get() : store.settings,
    redirects ? all(content.redirects.iterate()) : store.redirects,
  ]);
  for (const id of media) delete store.media[id];
  await fetchMedia(content, store, missingMedia(store));
  store.files = await fetchFiles(content, store, fallbackOrigin);
  store.cursor = after;
  return { store, fetched, removed, events: events.length };
}

/**
 * Brings the site's store up to date with Quire and reports what that cost.
 * @param {{ full?: boolean }} [options]
 * @returns {Promise<SyncReport>}
 */
export async function sync(options = {}) {
  const env = siteEnv();
  const started = performance.now();
  const traffic = { requests: 0, bytes: 0 };
  const content = new QuireContent({
    contentKey: env.contentKey,
    baseUrl: env.quireUrl,
    fetch: countingFetch(traffic),
    cache: false,
  });
  const previous = options.full ? null : readStore(env.dataDir);
  let result = previous && (await incrementalSync(content, previous, env.siteUrl));
  const full = !result;
  if (!result) result = await fullSync(content, env.siteUrl);
  const changed = full || result.events > 0;
  if (changed) writeStore(env.dataDir, { ...result.store, syncedAt: new Date().toISOString() });
  return {
    full,
    changed,
    events: result.events,
    fetched: result.fetched,
    removed: result.removed,
    requests: traffic.requests,
    bytes: traffic.bytes,
    seconds: Math.round(performance.now() - started) / 1000,
  };
}
