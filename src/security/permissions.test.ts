import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { ALL_PERMISSIONS, normalizePermissions, parsePermissionList, storedPermissions } from './permissions.js';

/** Runs `work` expecting the BAD_REQUEST AppError of an unknown permission, and returns it. */
function refusal(work: () => unknown): AppError {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('BAD_REQUEST');
    expect((error as AppError).status).toBe(400);
    return error as AppError;
  }
  throw new Error('no error was thrown');
}

describe('ALL_PERMISSIONS', () => {
  it('is read then write for each resource of contract §3, in its order, then site-settings:read, the drafts and the team', () => {
    const resources = [
      'posts',
      'pages',
      'media',
      'authors',
      'categories',
      'tags',
      'redirects',
      'link-health',
      'api-keys',
      'webhooks',
    ];
    expect(ALL_PERMISSIONS).toEqual([
      ...resources.flatMap((resource) => [`${resource}:read`, `${resource}:write`]),
      'site-settings:read',
      'posts:draft',
      'pages:draft',
      'members:write',
      'site-settings:write',
      'audit:read',
    ]);
    expect(() => parsePermissionList('members:read')).toThrow(/Unknown permission "members:read"/);
  });
});

describe('parsePermissionList', () => {
  it('reads the empty list as none', () => {
    expect(parsePermissionList('')).toEqual([]);
    expect(parsePermissionList('  ')).toEqual([]);
    expect(parsePermissionList(',')).toEqual([]);
  });

  it('parses a list, ignoring blanks around names and empty entries', () => {
    expect(parsePermissionList('posts:read,posts:write')).toEqual(['posts:read', 'posts:write']);
    expect(parsePermissionList(' posts:read , ,api-keys:write, ')).toEqual(['posts:read', 'api-keys:write']);
  });

  it('folds duplicates', () => {
    expect(parsePermissionList('posts:read,posts:read, posts:read')).toEqual(['posts:read']);
  });

  it('answers in canonical order whatever the order given', () => {
    expect(parsePermissionList('api-keys:read,posts:write,link-health:read,posts:read')).toEqual([
      'posts:read',
      'posts:write',
      'link-health:read',
      'api-keys:read',
    ]);
    expect(parsePermissionList([...ALL_PERMISSIONS].reverse().join(','))).toEqual(ALL_PERMISSIONS);
  });

  it('refuses unknown names with a BAD_REQUEST that names them', () => {
    const error = refusal(() => parsePermissionList('posts:read,posts:delete,Posts:Read'));
    expect(error.message).toContain('"posts:delete"');
    expect(error.message).toContain('"Posts:Read"');
    expect(error.message).not.toContain('"posts:read"');
    for (const list of [
      'posts',
      'posts:',
      ':read',
      'posts:*',
      'users:read',
      'posts:read;posts:write',
      'posts:read posts:write',
    ]) {
      refusal(() => parsePermissionList(list));
    }
  });
});

describe('normalizePermissions', () => {
  it('folds and orders an array the same way', () => {
    expect(normalizePermissions(['tags:write', 'posts:read', 'tags:write'])).toEqual(['posts:read', 'tags:write']);
    expect(normalizePermissions([])).toEqual([]);
  });

  it('refuses unknown and empty names', () => {
    refusal(() => normalizePermissions(['posts:read', 'everything']));
    refusal(() => normalizePermissions(['']));
  });
});

describe('storedPermissions', () => {
  it('keeps the known names of a stored array and drops the rest', () => {
    expect(storedPermissions('["posts:read","retired:read",7,null,"api-keys:write"]')).toEqual([
      'posts:read',
      'api-keys:write',
    ]);
    expect(storedPermissions('[]')).toEqual([]);
    expect(storedPermissions('{"posts:read":true}')).toEqual([]);
  });
});
