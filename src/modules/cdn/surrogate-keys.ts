import type { ResourceType } from '../../writes/changes.js';

/**
 * Surrogate keys (docs/content-api.md, "CDN"): the names a shared cache files a content answer under, and the
 * names a content write purges. An answer names its workspace, and either the one resource it is with every
 * resource it embeds, or, for a list, feed or sitemap, the collection it lists. A write purges the keys of what it
 * changed and of the collections that could list or embed it, so no answer outlives a write it depends on, and an
 * answer that depends on nothing the write touched stays cached.
 */
export const surrogateKey = {
  workspace: (workspaceId: string) => `ws-${workspaceId}`,
  item: (type: KeyedType, id: string) => `${type}-${id}`,
  collection: (type: KeyedType, workspaceId: string) => `${type}s-${workspaceId}`,
};

export type KeyedType = Exclude<ResourceType, 'settings'>;

/** Resources that posts and pages embed in their answers (author, category, tags, media). */
const EMBEDDED: ReadonlySet<string> = new Set(['author', 'category', 'tag', 'media']);

/** The keys one content event purges. */
export function purgeKeysOf(workspaceId: string, type: string, id: string): string[] {
  // The settings feed every answer (structured data, URLs): everything of the workspace goes.
  if (type === 'settings') return [surrogateKey.workspace(workspaceId)];
  const keyed = type as KeyedType;
  const keys = [surrogateKey.item(keyed, id), surrogateKey.collection(keyed, workspaceId)];
  if (EMBEDDED.has(type))
    keys.push(surrogateKey.collection('post', workspaceId), surrogateKey.collection('page', workspaceId));
  return keys;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;
const ids = (value: unknown): string[] =>
  Array.isArray(value) ? value.flatMap((item) => (isObject(item) && typeof item.id === 'string' ? [item.id] : [])) : [];

/** The media an answer's blocks show. */
function blockMedia(body: unknown): string[] {
  if (!Array.isArray(body)) return [];
  return body.flatMap((block) => (isObject(block) && typeof block.mediaId === 'string' ? [block.mediaId] : []));
}

/**
 * The keys of one post's or page's answer: itself and what it embeds (its author, category, tags, media and
 * related posts), read from the answer as it is sent, so that nothing it shows is left unnamed.
 */
export function contentAnswerKeys(type: 'post' | 'page', workspaceId: string, answer: Json): string[] {
  const keys = new Set([surrogateKey.workspace(workspaceId)]);
  const add = (keyed: KeyedType, id: unknown) => {
    if (typeof id === 'string') keys.add(surrogateKey.item(keyed, id));
  };
  add(type, answer.id);
  add('author', answer.authorId);
  add('category', answer.categoryId);
  add('media', answer.featuredMediaId);
  for (const id of ids(answer.tags)) add('tag', id);
  for (const id of ids(answer.relatedPosts)) add('post', id);
  for (const id of blockMedia(answer.bodyJson)) add('media', id);
  if (isObject(answer.category)) add('category', answer.category.parentId);
  return [...keys];
}

/** The keys of an answer about one author, tag, category or media file (and the media it shows). */
export function itemAnswerKeys(type: KeyedType, workspaceId: string, answer: Json): string[] {
  const keys = [surrogateKey.workspace(workspaceId)];
  if (typeof answer.id === 'string') keys.push(surrogateKey.item(type, answer.id));
  for (const field of ['avatarMediaId', 'imageMediaId', 'logoMediaId'])
    if (typeof answer[field] === 'string') keys.push(surrogateKey.item('media', answer[field]));
  return keys;
}

/** The keys of a list, feed or sitemap: the collections it is drawn from. */
export function collectionKeys(workspaceId: string, ...types: KeyedType[]): string[] {
  return [surrogateKey.workspace(workspaceId), ...types.map((type) => surrogateKey.collection(type, workspaceId))];
}
