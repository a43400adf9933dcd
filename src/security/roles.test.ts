import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from './permissions.js';
import { roleOf, ROLES } from './roles.js';

describe('roles', () => {
  it('are sets of known permissions; only admin holds members:write, and contributors cannot publish', () => {
    for (const [name, permissions] of Object.entries(ROLES)) {
      expect(
        permissions.every((p) => ALL_PERMISSIONS.includes(p)),
        name,
      ).toBe(true);
      expect(new Set(permissions).size, name).toBe(permissions.length);
    }
    expect(ROLES.contributor).not.toContain('posts:write');
    expect(ROLES.contributor).toContain('posts:draft');
    expect(ROLES.editor).toContain('posts:write');
    expect(ROLES.editor).not.toContain('members:write');
    expect(ROLES.admin).toContain('members:write');
  });

  it('names the preset a set of permissions is, in any order, or none', () => {
    expect(roleOf([...ROLES.contributor].reverse())).toBe('contributor');
    expect(roleOf(ROLES.editor)).toBe('editor');
    expect(roleOf(ALL_PERMISSIONS)).toBe('admin');
    expect(roleOf([...ROLES.editor, 'webhooks:read'])).toBeNull();
    expect(roleOf(ROLES.editor.slice(1))).toBeNull();
    expect(roleOf([])).toBeNull();
  });
});
