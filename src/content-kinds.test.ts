import { describe, expect, it } from 'vitest';
import { CONTENT_KINDS } from './content-kinds.js';
import type { ResourceType } from './writes/changes.js';
import { contentKind, installContentKinds } from './writes/kinds.js';

// Every resource type a content write can change; the Record makes the compiler ask for a new one.
const TYPES = Object.keys({
  post: true,
  page: true,
  media: true,
  author: true,
  category: true,
  tag: true,
  redirect: true,
  settings: true,
} satisfies Record<ResourceType, true>) as ResourceType[];

describe('the content kinds the write path is handed', () => {
  it('refuses a write before the kinds are handed in, naming the kind', () => {
    expect(() => contentKind('post')).toThrow("The write path has no content kind 'post'");
  });

  it('has a serializer for every resource type, and snapshots for those that keep revisions', () => {
    installContentKinds(CONTENT_KINDS);
    for (const type of TYPES) expect(typeof contentKind(type).serialize, type).toBe('function');
    expect(TYPES.filter((type) => contentKind(type).snapshots)).toEqual(['post', 'page']);
  });

  it('serializes an answer as the external API does, leaving out what the schema lacks', () => {
    installContentKinds(CONTENT_KINDS);
    const redirect = {
      id: '0b7e0e39-4a53-4d38-9f0e-2a5d1d6f1f3a',
      workspaceId: '5c3a1c5e-8d7b-4b8e-9d7e-6a1b2c3d4e5f',
      fromPath: '/old',
      toPath: '/new',
      statusCode: 301,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      internal: 'not in the schema',
    };
    expect(JSON.parse(contentKind('redirect').serialize(redirect))).not.toHaveProperty('internal');
  });
});
