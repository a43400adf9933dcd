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
// Keys only read the site settings; the owner edits them on the Site settings screen.
const READ_ONLY: ReadonlySet<GridResource> = new Set<GridResource>(['site-settings']);
const ACCESS = ['read', 'write'] as const;

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

const offered = (resource: GridResource, access: (typeof ACCESS)[number]) =>
  access === 'read' || !READ_ONLY.has(resource);

export const ALL_PERMISSIONS: Permission[] = RESOURCES.flatMap((resource) =>
  ACCESS.filter((access) => offered(resource, access)).map((access) => `${resource}:${access}` as Permission),
);

interface Props {
  value: string[];
  onChange?(value: string[]): void;
  /** Shown in the caption, so two grids on a page are told apart. */
  caption: string;
}

/** Resources × read/write; without onChange it is a read-only view. */
export function PermissionsGrid({ value, onChange, caption }: Props) {
  const chosen = new Set(value);
  const toggle = (permission: Permission, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(permission);
    else next.delete(permission);
    onChange?.(ALL_PERMISSIONS.filter((p) => next.has(p)));
  };
  return (
    <div className="permissions">
      <table className="grid">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Resource</th>
            <th scope="col">Read</th>
            <th scope="col">Write</th>
          </tr>
        </thead>
        <tbody>
          {RESOURCES.map((resource) => (
            <tr key={resource}>
              <th scope="row">{LABELS[resource]}</th>
              {ACCESS.map((access) => {
                const permission = `${resource}:${access}` as Permission;
                if (!offered(resource, access)) {
                  return (
                    <td key={access}>
                      <span aria-hidden="true">—</span>
                      <span className="visually-hidden">No {access} permission: the owner edits them</span>
                    </td>
                  );
                }
                return (
                  <td key={access}>
                    <input
                      type="checkbox"
                      aria-label={`${LABELS[resource]}: ${access}`}
                      checked={chosen.has(permission)}
                      disabled={!onChange}
                      onChange={(event) => toggle(permission, event.target.checked)}
                    />
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {onChange && (
        <div className="actions actions-start grid-presets">
          <button
            type="button"
            className="button-small"
            onClick={() => onChange(ALL_PERMISSIONS.filter((p) => p.endsWith(':read')))}
          >
            Read everything
          </button>
          <button type="button" className="button-small" onClick={() => onChange([...ALL_PERMISSIONS])}>
            Everything
          </button>
          <button type="button" className="button-small" onClick={() => onChange([])}>
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
  if (permissions.length === ALL_PERMISSIONS.length) return 'Everything';
  return permissions.join(', ');
}
