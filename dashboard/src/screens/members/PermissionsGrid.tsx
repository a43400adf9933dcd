import { useId } from 'react';
import { ALL_PERMISSIONS as SERVER_PERMISSIONS } from '../../../../src/security/permissions.js';
import type { Permission, ReadOnlyResource, Resource } from '../../types';

type GridResource = Resource | ReadOnlyResource;

// The resources of contract §3, in the order people think of them; the server refuses any other name.
export const RESOURCES: readonly GridResource[] = [
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
  'site-settings',
];
// Keys only read the site settings; editing them is a team permission, below the table.
const READ_ONLY: ReadonlySet<GridResource> = new Set<GridResource>(['site-settings']);
// Posts and pages can be written as drafts only (`posts:draft`): creating drafts and editing drafts, never publishing.
const DRAFTABLE: ReadonlySet<GridResource> = new Set<GridResource>(['posts', 'pages']);
const ACCESS = ['read', 'write', 'draft'] as const;
type Access = (typeof ACCESS)[number];

const LABELS: Record<GridResource, string> = {
  posts: 'Posts',
  pages: 'Pages',
  media: 'Media',
  authors: 'Authors',
  categories: 'Categories',
  tags: 'Tags',
  redirects: 'Redirects',
  'link-health': 'Link health',
  'api-keys': 'API keys',
  webhooks: 'Webhooks',
  'site-settings': 'Site settings',
};

/** What the workspace's people may do beyond its content: shown as their own part, with plain labels. */
export const TEAM: ReadonlyArray<{ permission: Permission; label: string }> = [
  { permission: 'members:write', label: 'Manage members and invitations' },
  { permission: 'site-settings:write', label: 'Edit site settings' },
  { permission: 'audit:read', label: 'Read the audit log' },
];

const offered = (resource: GridResource, access: Access) =>
  access === 'read' || (access === 'write' ? !READ_ONLY.has(resource) : DRAFTABLE.has(resource));

const accessLabel = (resource: GridResource, access: Access) =>
  access === 'draft'
    ? `${LABELS[resource]}: drafts only (write drafts, cannot publish)`
    : `${LABELS[resource]}: ${access}`;

const missingWords: Record<Access, string> = {
  read: 'No read permission',
  write: 'No write permission here: editing the site settings is under Team',
  draft: 'No drafts-only permission: only posts and pages have drafts',
};

/** Every permission the grid can set, in the server's canonical order. */
export const ALL_PERMISSIONS: readonly Permission[] = SERVER_PERMISSIONS;

interface Props {
  value: string[];
  onChange?(value: string[]): void;
  /** Shown in the caption, so two grids on a page are told apart. */
  caption: string;
  /** The permissions the person editing may grant (what they hold); without it, all (the owner). */
  grantable?: ReadonlySet<string>;
}

/** Resources × read/write/drafts only, then the team permissions; without onChange it is a read-only view. */
export function PermissionsGrid({ value, onChange, caption, grantable }: Props) {
  const hintId = useId();
  const teamId = useId();
  const chosen = new Set(value);
  const locked = (permission: Permission) => grantable !== undefined && !grantable.has(permission);
  const anyLocked = onChange !== undefined && ALL_PERMISSIONS.some(locked);
  const set = (next: Iterable<string>) => {
    const wanted = new Set(next);
    onChange?.(ALL_PERMISSIONS.filter((p) => wanted.has(p)));
  };
  const toggle = (permission: Permission, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(permission);
    else next.delete(permission);
    set(next);
  };
  const box = (permission: Permission, label: string, labelled = true) => (
    <input
      type="checkbox"
      aria-label={labelled ? label : undefined}
      checked={chosen.has(permission)}
      disabled={!onChange || locked(permission)}
      aria-describedby={onChange && locked(permission) ? hintId : undefined}
      onChange={(event) => toggle(permission, event.target.checked)}
    />
  );
  return (
    <div className="permissions">
      <table className="grid permissions-grid">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Resource</th>
            <th scope="col">Read</th>
            <th scope="col">Write</th>
            <th scope="col">
              Drafts only<span className="visually-hidden">: write drafts, cannot publish</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {RESOURCES.map((resource) => (
            <tr key={resource}>
              <th scope="row">{LABELS[resource]}</th>
              {ACCESS.map((access) => {
                if (!offered(resource, access)) {
                  return (
                    <td key={access}>
                      <span aria-hidden="true">—</span>
                      <span className="visually-hidden">{missingWords[access]}</span>
                    </td>
                  );
                }
                const permission = `${resource}:${access}` as Permission;
                return <td key={access}>{box(permission, accessLabel(resource, access))}</td>;
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="hint grid-note">
        <strong>Drafts only</strong> lets them create drafts and edit drafts, but not publish, unpublish or delete.
      </p>
      <fieldset className="grid-team" aria-describedby={teamId}>
        <legend>Team</legend>
        <p className="hint" id={teamId}>
          Beyond content: inviting and managing other members (never the owner), and the site settings.
        </p>
        {TEAM.map(({ permission, label }) => (
          <label key={permission} className="checkbox">
            {box(permission, label, false)}
            <span>{label}</span>
          </label>
        ))}
      </fieldset>
      {anyLocked && (
        <p className="hint grid-locked" id={hintId}>
          Greyed-out boxes are permissions you do not hold yourself, so you cannot grant them. Only the owner can.
        </p>
      )}
      {onChange && (
        <div className="actions actions-start grid-presets">
          <button
            type="button"
            className="button-small"
            onClick={() => set(ALL_PERMISSIONS.filter((p) => p.endsWith(':read') && !locked(p)))}
          >
            Read everything
          </button>
          <button type="button" className="button-small" onClick={() => set([])}>
            Nothing
          </button>
        </div>
      )}
    </div>
  );
}

/** A short reading of a permission list for a table cell. */
export function summarize(permissions: string[], isOwner: boolean): string {
  if (isOwner) return 'Everything (owner)';
  if (permissions.length === 0) return 'No access';
  const held = new Set(permissions);
  if (ALL_PERMISSIONS.every((p) => held.has(p))) return 'Everything';
  return permissions.join(', ');
}
