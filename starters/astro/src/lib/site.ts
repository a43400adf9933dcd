import fs from 'node:fs';
import { siteEnv } from '../../lib/env.mjs';
import { readStore, storeFile, type Item, type Store } from '../../lib/store.mjs';
import { pagePath, pathOf, tagPath } from '../../lib/urls.mjs';

/**
 * The site as the pages see it: the synced store, with what the pages ask of it worked out once per build (the
 * posts newest first, each listing's posts, the category tree, each thing's path).
 */

export const PAGE_SIZE = 10;

export interface Site {
  store: Store;
  settings: Item;
  name: string;
  origin: string | null;
  posts: Item[];
  pages: Item[];
  authors: Item[];
  tags: Item[];
  categories: Item[];
  topCategories: Item[];
  postPath(post: Item): string;
  pagePath(page: Item): string;
  authorPath(author: Item): string;
  categoryPath(category: Item): string;
  tagPath(tag: Item): string;
  author(id: string | null | undefined): Item | undefined;
  category(id: string | null | undefined): Item | undefined;
  tag(id: string): Item | undefined;
  post(id: string): Item | undefined;
  media(id: string | null | undefined): Item | undefined;
  children(category: Item): Item[];
  ancestors(category: Item): Item[];
  postsOfAuthor(author: Item): Item[];
  postsOfTag(tag: Item): Item[];
  postsOfCategory(category: Item): Item[];
  absolute(path: string): string | null;
}

const newestFirst = (a: Item, b: Item) => String(b.publishedAt ?? '').localeCompare(String(a.publishedAt ?? ''));
const bySortOrder = (a: Item, b: Item) =>
  (a.sortOrder ?? 0) - (b.sortOrder ?? 0) || String(a.name ?? '').localeCompare(String(b.name ?? ''));

let loaded: { site: Site; stamp: number } | null = null;

/**
 * The site as the store has it: read once per version of the store, so a build reads it once and the server's
 * on-demand pages (search, preview, 404) see each sync as soon as it is written.
 */
export function site(): Site {
  const env = siteEnv();
  const stamp = fs.statSync(storeFile(env.dataDir), { throwIfNoEntry: false })?.mtimeMs;
  if (stamp === undefined) throw new Error(`No content synced yet in ${env.dataDir}: run \`npm run sync\` first`);
  if (loaded?.stamp === stamp) return loaded.site;
  const store = readStore(env.dataDir);
  if (!store) throw new Error(`The store in ${env.dataDir} is of another version: run \`npm run sync -- --full\``);
  loaded = { site: siteOf(store, env.siteUrl), stamp };
  return loaded.site;
}

export function siteOf(store: Store, fallbackOrigin: string | undefined): Site {
  const settings = store.settings;
  const posts = Object.values(store.posts).sort(newestFirst);
  const categories = Object.values(store.categories).filter((category) => category.isActive !== false);
  const known = new Set(categories.map((category) => category.id));
  const childrenOf = new Map<string | null, Item[]>();
  for (const category of categories) {
    const parent = category.parentId && known.has(category.parentId) ? category.parentId : null;
    childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), category]);
  }
  for (const list of childrenOf.values()) list.sort(bySortOrder);
  const postsBy = (key: (post: Item) => string[]) => {
    const map = new Map<string, Item[]>();
    for (const post of posts) for (const id of key(post)) map.set(id, [...(map.get(id) ?? []), post]);
    return map;
  };
  const byAuthor = postsBy((post) => (post.authorId ? [post.authorId] : []));
  const byTag = postsBy((post) => (post.tags ?? []).map((tag: Item) => tag.id));
  const byCategory = postsBy((post) => (post.categoryId ? [post.categoryId] : []));
  const origin = (settings.siteUrl ?? fallbackOrigin ?? '').replace(/\/+$/, '') || null;
  const descendants = (category: Item): Item[] =>
    (childrenOf.get(category.id) ?? []).flatMap((child) => [child, ...descendants(child)]);
  // Media embedded in answers (featured images, avatars, the logo) and media read by id, in one map.
  const media = new Map<string, Item>(Object.entries(store.media));
  for (const item of [...posts, ...Object.values(store.authors)]) {
    if (item.featuredMedia) media.set(item.featuredMedia.id, item.featuredMedia);
    if (item.avatarMedia) media.set(item.avatarMedia.id, item.avatarMedia);
  }
  if (settings.logo) media.set(settings.logo.id, settings.logo);

  return {
    store,
    settings,
    name: settings.siteName ?? 'Quire site',
    origin,
    posts,
    pages: Object.values(store.pages).sort((a, b) => String(a.title).localeCompare(String(b.title))),
    authors: Object.values(store.authors).sort((a, b) => String(a.displayName).localeCompare(String(b.displayName))),
    tags: Object.values(store.tags).sort((a, b) => String(a.name).localeCompare(String(b.name))),
    categories,
    topCategories: childrenOf.get(null) ?? [],
    postPath: (post) => pathOf(settings, 'postUrlPattern', post as { slug: string }),
    pagePath: (page) => pathOf(settings, 'pageUrlPattern', page as { slug: string }),
    authorPath: (author) => pathOf(settings, 'authorUrlPattern', author as { slug: string }),
    categoryPath: (category) => pathOf(settings, 'categoryUrlPattern', category as { slug: string; path?: string }),
    tagPath: (tag) => tagPath(tag.slug),
    author: (id) => (id ? store.authors[id] : undefined),
    category: (id) => (id ? store.categories[id] : undefined),
    tag: (id) => store.tags[id],
    post: (id) => store.posts[id],
    media: (id) => (id ? media.get(id) : undefined),
    children: (category) => childrenOf.get(category.id) ?? [],
    ancestors: (category) => {
      const chain: Item[] = [];
      for (let at = category; at.parentId && known.has(at.parentId) && chain.length < 20;) {
        at = store.categories[at.parentId]!;
        chain.unshift(at);
      }
      return chain;
    },
    postsOfAuthor: (author) => byAuthor.get(author.id) ?? [],
    postsOfTag: (tag) => byTag.get(tag.id) ?? [],
    postsOfCategory: (category) => {
      if (!category.collectionMetadata?.includeChildCategories) return byCategory.get(category.id) ?? [];
      const ids = new Set([category.id, ...descendants(category).map((child) => child.id)]);
      return posts.filter((post) => ids.has(post.categoryId));
    },
    absolute: (path) => (origin ? `${origin}${path}` : null),
  };
}

/** The pages of a listing: `size` posts each, the first at `base`, then `base/page/2` … */
export function paginate(base: string, posts: Item[], size = PAGE_SIZE) {
  const count = Math.max(1, Math.ceil(posts.length / size));
  return Array.from({ length: count }, (_, index) => ({
    path: pagePath(base, index + 1),
    n: index + 1,
    count,
    posts: posts.slice(index * size, (index + 1) * size),
    prev: index > 0 ? pagePath(base, index) : null,
    next: index + 1 < count ? pagePath(base, index + 2) : null,
  }));
}
export type Paged = ReturnType<typeof paginate>[number];
