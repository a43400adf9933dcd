import type { Permission } from '../security/permissions.js';
import type { ChangeAction, ResourceType } from './changes.js';

/** How each resource type is named in an event type, and which verbs it has (issue 22's list, and more). */
const NAMES: Record<ResourceType, { noun: string; verbs: readonly ChangeAction[] }> = {
  post: { noun: 'post', verbs: ['created', 'updated', 'published', 'unpublished', 'archived', 'deleted'] },
  page: { noun: 'page', verbs: ['created', 'updated', 'published', 'unpublished', 'deleted'] },
  media: { noun: 'media', verbs: ['created', 'updated', 'deleted'] },
  author: { noun: 'author', verbs: ['created', 'updated', 'deleted'] },
  category: { noun: 'category', verbs: ['created', 'updated', 'deleted'] },
  tag: { noun: 'tag', verbs: ['created', 'updated', 'deleted'] },
  redirect: { noun: 'redirect', verbs: ['created', 'updated', 'deleted'] },
  settings: { noun: 'site-settings', verbs: ['updated'] },
};

/** Every event type there is, `post.created` … `site-settings.updated`: what a subscriber may ask for. */
export const EVENT_TYPES: readonly string[] = Object.values(NAMES).flatMap(({ noun, verbs }) =>
  verbs.map((verb) => `${noun}.${verb}`),
);

/**
 * The event type of a content event: its resource and what happened to it. Tags attached to or detached from
 * a post change the post as it reads, so they are `post.updated`; any action a type has no verb for is an
 * update of it. The change feed names its events with this, and webhooks will.
 */
export function eventType(type: ResourceType, action: ChangeAction): string {
  const { noun, verbs } = NAMES[type];
  return `${noun}.${verbs.includes(action) ? action : 'updated'}`;
}

/** The permission that lets a key see events of a resource type: the one that reads the resource. */
export const READ_PERMISSION: Record<ResourceType, Permission> = {
  post: 'posts:read',
  page: 'pages:read',
  media: 'media:read',
  author: 'authors:read',
  category: 'categories:read',
  tag: 'tags:read',
  redirect: 'redirects:read',
  settings: 'site-settings:read',
};

const BY_NOUN = new Map(Object.entries(NAMES).map(([type, { noun }]) => [noun, type as ResourceType]));

/** The resource type an event type is about (`post.published` → post); undefined for `webhook.test` and the like. */
export function resourceTypeOf(eventType: string): ResourceType | undefined {
  return BY_NOUN.get(eventType.slice(0, eventType.lastIndexOf('.')));
}
