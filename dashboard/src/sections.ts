import { can } from './session';
import type { Permission, WorkspaceSummary } from './types';

export const SECTIONS = [
  'keys',
  'members',
  'settings',
  'posts',
  'pages',
  'reviews',
  'media',
  'authors',
  'categories',
  'tags',
  'redirects',
  'link-health',
  'webhooks',
  'imports',
  'audit',
] as const;
export type Section = (typeof SECTIONS)[number];

export function isSection(value: string): value is Section {
  return (SECTIONS as readonly string[]).includes(value);
}

export interface NavItem {
  section: Section;
  label: string;
  /** Hidden without it: the server would only answer 403. */
  needs?: Permission;
  /** Hidden without one of them (the review queue shows posts' reviews to readers of posts, pages' to pages'). */
  needsOne?: Permission[];
  /** Hidden from everyone but the workspace's owner, whatever their permissions. */
  ownerOnly?: true;
}

export const NAV: Array<{ heading: string; items: NavItem[] }> = [
  {
    heading: 'Workspace',
    items: [
      { section: 'keys', label: 'API keys', needs: 'api-keys:read' },
      { section: 'members', label: 'Members' },
      { section: 'settings', label: 'Site settings' },
      { section: 'audit', label: 'Audit log', needs: 'audit:read' },
      { section: 'imports', label: 'Import', ownerOnly: true },
    ],
  },
  {
    heading: 'Content',
    items: [
      { section: 'posts', label: 'Posts', needs: 'posts:read' },
      { section: 'pages', label: 'Pages', needs: 'pages:read' },
      { section: 'reviews', label: 'Review', needsOne: ['posts:read', 'pages:read'] },
      { section: 'media', label: 'Media', needs: 'media:read' },
      { section: 'authors', label: 'Authors', needs: 'authors:read' },
      { section: 'categories', label: 'Categories', needs: 'categories:read' },
      { section: 'tags', label: 'Tags', needs: 'tags:read' },
    ],
  },
  {
    heading: 'Site health',
    items: [
      { section: 'redirects', label: 'Redirects', needs: 'redirects:read' },
      { section: 'link-health', label: 'Link health', needs: 'link-health:read' },
      { section: 'webhooks', label: 'Webhooks', needs: 'webhooks:read' },
    ],
  },
];

export function allowed(workspace: WorkspaceSummary, item: NavItem): boolean {
  if (item.ownerOnly && !workspace.isOwner) return false;
  if (item.needsOne && !item.needsOne.some((permission) => can(workspace, permission))) return false;
  return !item.needs || can(workspace, item.needs);
}

const ITEMS = NAV.flatMap((group) => group.items);
// Writers sign in to write: the posts list first, then pages; keys for a member who may read only those; Members
// is open to everyone, so it is the last resort.
const LANDING_ORDER: Section[] = [
  'posts',
  'pages',
  'keys',
  'media',
  'authors',
  'categories',
  'tags',
  'redirects',
  'link-health',
  'webhooks',
  'members',
];

/** Where to land in a workspace: the wanted section when the member may read it, else the first they may. */
export function landingSection(workspace: WorkspaceSummary, wanted?: string): Section {
  const readable = (section: string) => ITEMS.some((item) => item.section === section && allowed(workspace, item));
  if (wanted && readable(wanted)) return wanted as Section;
  return LANDING_ORDER.find(readable) ?? 'members';
}
