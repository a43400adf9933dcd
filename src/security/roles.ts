import { ALL_PERMISSIONS, type Permission } from './permissions.js';

/**
 * Roles are presets of permissions (docs/team.md, "Roles"): choosing one fills a member's permissions, which stay
 * the one thing the server checks, so a custom set remains possible and a preset can change without a migration.
 * The dashboard imports these to offer them and to name the preset a member's permissions match.
 */
export const ROLES = {
  /** Writes drafts, uploads their images, reads the rest of the content; cannot publish. */
  contributor: [
    'posts:read',
    'posts:draft',
    'pages:read',
    'pages:draft',
    'media:read',
    'media:write',
    'authors:read',
    'categories:read',
    'tags:read',
    'site-settings:read',
  ],
  /** All content, publishing included. */
  editor: [
    'posts:read',
    'posts:write',
    'pages:read',
    'pages:write',
    'media:read',
    'media:write',
    'authors:read',
    'authors:write',
    'categories:read',
    'categories:write',
    'tags:read',
    'tags:write',
    'redirects:read',
    'redirects:write',
    'link-health:read',
    'link-health:write',
    'site-settings:read',
  ],
  /** Content, keys, webhooks, members and settings: everything but what only the owner does (transfer, import). */
  admin: ALL_PERMISSIONS,
} as const satisfies Record<string, readonly Permission[]>;

export type RoleName = keyof typeof ROLES;
export const ROLE_NAMES = Object.keys(ROLES) as RoleName[];

/** The preset `permissions` are exactly (in any order), or null for a custom set. */
export function roleOf(permissions: readonly string[]): RoleName | null {
  const given = new Set(permissions);
  return (
    ROLE_NAMES.find((name) => {
      const preset: readonly string[] = ROLES[name];
      return preset.length === given.size && preset.every((permission) => given.has(permission));
    }) ?? null
  );
}
