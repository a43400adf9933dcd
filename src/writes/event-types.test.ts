import { describe, expect, it } from 'vitest';
import type { ChangeAction, ResourceType } from './changes.js';
import { EVENT_TYPES, eventType } from './event-types.js';

describe('eventType', () => {
  it('names each write of a post and a page as the issue lists them', () => {
    expect(eventType('post', 'created')).toBe('post.created');
    expect(eventType('post', 'updated')).toBe('post.updated');
    expect(eventType('post', 'published')).toBe('post.published');
    expect(eventType('post', 'unpublished')).toBe('post.unpublished');
    expect(eventType('post', 'archived')).toBe('post.archived');
    expect(eventType('post', 'deleted')).toBe('post.deleted');
    expect(eventType('page', 'published')).toBe('page.published');
    expect(eventType('page', 'deleted')).toBe('page.deleted');
  });

  it('makes a tag attached to or detached from a post an update of the post', () => {
    expect(eventType('post', 'attached')).toBe('post.updated');
    expect(eventType('post', 'detached')).toBe('post.updated');
  });

  it('names the other resources, and the site settings as site-settings', () => {
    expect(eventType('media', 'created')).toBe('media.created');
    expect(eventType('media', 'deleted')).toBe('media.deleted');
    expect(eventType('author', 'updated')).toBe('author.updated');
    expect(eventType('category', 'deleted')).toBe('category.deleted');
    expect(eventType('tag', 'created')).toBe('tag.created');
    expect(eventType('redirect', 'deleted')).toBe('redirect.deleted');
    expect(eventType('settings', 'updated')).toBe('site-settings.updated');
  });

  it('answers one of EVENT_TYPES for every resource type and action', () => {
    const types: ResourceType[] = ['post', 'page', 'media', 'author', 'category', 'tag', 'redirect', 'settings'];
    const actions: ChangeAction[] = [
      'created',
      'updated',
      'published',
      'unpublished',
      'archived',
      'deleted',
      'attached',
      'detached',
    ];
    for (const type of types) for (const action of actions) expect(EVENT_TYPES).toContain(eventType(type, action));
    expect(new Set(EVENT_TYPES).size).toBe(EVENT_TYPES.length);
    expect(EVENT_TYPES).toEqual(
      expect.arrayContaining(['post.created', 'page.unpublished', 'media.created', 'tag.deleted', 'redirect.updated']),
    );
  });
});
