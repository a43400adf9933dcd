import { badRequest } from '../errors.js';

/** Resources a permission can name (contract §3); each has `:read` and `:write`, and write does not imply read. */
export const RESOURCES = [
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
] as const;
export type Resource = (typeof RESOURCES)[number];

/** Resources the API reads with a key but only the dashboard writes: `site-settings:write` is the settings form's. */
export const READ_ONLY_RESOURCES = ['site-settings'] as const;
export type ReadOnlyResource = (typeof READ_ONLY_RESOURCES)[number];

/**
 * Narrower than `:write` (docs/team.md, "Roles"): `posts:draft` creates posts as drafts and edits posts that are
 * drafts, keeping them drafts; every status move, and every edit of a published or archived post, needs
 * `posts:write`. The same for pages.
 */
export const DRAFT_RESOURCES = ['posts', 'pages'] as const;
export type DraftResource = (typeof DRAFT_RESOURCES)[number];

/**
 * Beyond the resources of the API: managing the workspace's members and invitations (`members:write`), its site
 * settings (`site-settings:write`), and reading its audit log (`audit:read`). Until these, all were the owner's
 * alone; the owner still holds them.
 */
export const TEAM_PERMISSIONS = ['members:write', 'site-settings:write', 'audit:read'] as const;

export type Permission =
  | `${Resource}:${'read' | 'write'}`
  | `${ReadOnlyResource}:read`
  | `${DraftResource}:draft`
  | (typeof TEAM_PERMISSIONS)[number];

export const ALL_PERMISSIONS: readonly Permission[] = [
  ...RESOURCES.flatMap((resource) => [`${resource}:read`, `${resource}:write`] as Permission[]),
  ...READ_ONLY_RESOURCES.map((resource): Permission => `${resource}:read`),
  ...DRAFT_RESOURCES.map((resource): Permission => `${resource}:draft`),
  ...TEAM_PERMISSIONS,
];
const KNOWN = new Set<string>(ALL_PERMISSIONS);

export function isPermission(value: string): value is Permission {
  return KNOWN.has(value);
}

/** Parses a comma-separated list (`""` is none); unknown names are refused, duplicates folded, order canonical. */
export function parsePermissionList(list: string): Permission[] {
  const names = list
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return normalizePermissions(names);
}

export function normalizePermissions(names: readonly string[]): Permission[] {
  const unknown = names.filter((name) => !isPermission(name));
  if (unknown.length > 0) {
    throw badRequest(
      `Unknown permission ${unknown.map((n) => `"${n}"`).join(', ')}; known: ${ALL_PERMISSIONS.join(', ')}`,
    );
  }
  const wanted = new Set(names);
  return ALL_PERMISSIONS.filter((permission) => wanted.has(permission));
}

/** Reads a stored permissions array, dropping anything no longer known rather than failing the request. */
export function storedPermissions(json: string): Permission[] {
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed)
    ? parsed.filter((name): name is Permission => typeof name === 'string' && isPermission(name))
    : [];
}
