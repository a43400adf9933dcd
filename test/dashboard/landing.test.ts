import { describe, expect, it } from 'vitest';
import type { WorkspaceSummary } from '../../dashboard/src/types.js';

// sections.ts reads permissions through session.tsx: loaded at run time, as the server's type check has no JSX.
const sectionsModule = '../../dashboard/src/sections.ts';
const { landingSection } = (await import(sectionsModule)) as {
  landingSection(workspace: WorkspaceSummary, wanted?: string): string;
};

const member = (permissions: string[], isOwner = false) =>
  ({ id: 'w', slug: 'w', name: 'W', isOwner, permissions }) as unknown as WorkspaceSummary;

describe('where signing in lands in a workspace', () => {
  it('lands on the posts list whoever may read it, the owner first', () => {
    expect(landingSection(member([], true))).toBe('posts');
    expect(landingSection(member(['api-keys:read', 'posts:read']))).toBe('posts');
  });

  it('lands on the first section a member may read without posts, and Members without anything', () => {
    expect(landingSection(member(['pages:read', 'api-keys:read']))).toBe('pages');
    expect(landingSection(member(['api-keys:read']))).toBe('keys');
    expect(landingSection(member(['tags:read']))).toBe('tags');
    expect(landingSection(member([]))).toBe('members');
  });

  it('keeps the section a member asked for when they may read it', () => {
    expect(landingSection(member([], true), 'keys')).toBe('keys');
    expect(landingSection(member(['posts:read']), 'keys')).toBe('posts');
  });
});
