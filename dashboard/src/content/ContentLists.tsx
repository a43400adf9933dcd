import { lazy, Suspense, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { api, ws } from '../api';
import { keys, useApi } from '../queries';
import { Field } from '../components/Field';
import { Pagination } from '../components/Pagination';
import { Badge, Empty, ErrorMessage, Loading, NOT_OFFERED } from '../components/Status';
import { formatTime } from '../hooks';
import { Link, useSearchState } from '../router';
import { canDraft } from '../session';
import type { Page, Paginated, WorkspaceSummary } from '../types';
import { isLibraryResource, LibraryScreen } from '../library/LibraryScreen';

// The media library is a chunk of its own, loaded when its screen is opened.
const MediaLibrary = lazy(() => import('../media/MediaLibrary').then((module) => ({ default: module.MediaLibrary })));

interface Column<T> {
  label: string;
  cell(item: T): ReactNode;
}

interface ListConfig<T> {
  title: string;
  lead: string;
  /** The noun of the empty state: "No pages yet." */
  plural: string;
  searchable: boolean;
  columns: Column<T>[];
  orderBy?: string;
}

const time = (iso: string | null) => (iso ? <time dateTime={iso}>{formatTime(iso)}</time> : '—');

const PAGES: ListConfig<Page> = {
  title: 'Pages',
  lead: 'Standalone pages such as About or Contact.',
  plural: 'pages',
  searchable: true,
  columns: [
    { label: 'Title', cell: (p) => p.title || '(untitled)' },
    { label: 'Slug', cell: (p) => <span className="mono">{p.slug}</span> },
    { label: 'Status', cell: (p) => <Badge tone={p.status === 'published' ? 'good' : 'neutral'}>{p.status}</Badge> },
    { label: 'Updated', cell: (p) => time(p.updatedAt) },
  ],
};

export function ContentListScreen({ workspace, resource }: { workspace: WorkspaceSummary; resource: string }) {
  if (isLibraryResource(resource)) return <LibraryScreen workspace={workspace} resource={resource} />;
  switch (resource) {
    case 'pages':
      return (
        <ResourceList
          workspace={workspace}
          path="pages"
          config={canDraft(workspace, 'pages') ? withPageEditor(PAGES, workspace.id) : PAGES}
          create={canDraft(workspace, 'pages') ? { to: `/w/${workspace.id}/pages/new`, label: 'New page' } : undefined}
        />
      );
    case 'media':
      return (
        <Suspense fallback={<Loading label="Loading media…" />}>
          <MediaLibrary workspace={workspace} />
        </Suspense>
      );
    default:
      return <h1>Not found</h1>;
  }
}

function ResourceList<T extends { id: string }>({
  workspace,
  path,
  config,
  create,
}: {
  workspace: WorkspaceSummary;
  path: string;
  config: ListConfig<T>;
  /** A link to the editor of a new item, in the header and the empty state. */
  create?: { to: string; label: string } | undefined;
}) {
  const [search, updateSearch] = useSearchState(['q', 'page'] as const);
  const query = search.q;
  const page = Math.max(1, Number(search.page) || 1);
  const [q, setQ] = useState(query);
  // Back and Forward change the search in the URL; the box shows the one in effect.
  useEffect(() => setQ(query), [query]);
  const list = useApi(keys.list(workspace.id, path, { page, q: query }), () =>
    api.get<Paginated<T>>(ws(workspace.id, `/${path}`), {
      page,
      pageSize: 20,
      q: query,
      ...(config.orderBy ? { orderBy: config.orderBy, order: 'desc' } : {}),
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    updateSearch({ q: q.trim(), page: '' });
  };
  const [first, ...rest] = config.columns;

  return (
    <>
      <div className="page-header">
        <h1>{config.title}</h1>
        {create && (
          <Link to={create.to} className="link-button">
            {create.label}
          </Link>
        )}
      </div>
      <p className="lead">{config.lead}</p>
      {config.searchable && (
        <form className="filters" role="search" aria-label={`Search ${config.plural}`} onSubmit={submit}>
          <div className="field-row">
            <Field label="Search" type="search" value={q} onChange={(e) => setQ(e.target.value)} />
            <button type="submit">Search</button>
          </div>
        </form>
      )}
      {list.state === 'error' && <ErrorMessage error={list.error} onRetry={list.reload} notFound={NOT_OFFERED} />}
      {list.state === 'loading' && !list.data && <Loading label={`Loading ${config.plural}…`} />}
      {list.data && list.data.data.length === 0 && (
        <Empty>
          {query ? `No ${config.plural} match.` : `No ${config.plural} yet.`}
          {create && !query && (
            <>
              {' '}
              <Link to={create.to}>{create.label}</Link>.
            </>
          )}
        </Empty>
      )}
      {list.data && list.data.data.length > 0 && first && (
        <table className="table" aria-busy={list.state === 'loading'}>
          <caption className="visually-hidden">{config.title}</caption>
          <thead>
            <tr>
              {config.columns.map((column) => (
                <th key={column.label} scope="col">
                  {column.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {list.data.data.map((item) => (
              <tr key={item.id}>
                <th scope="row" data-label={first.label}>
                  {first.cell(item)}
                </th>
                {rest.map((column) => (
                  <td key={column.label} data-label={column.label}>
                    {column.cell(item)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {list.data && list.data.totalPages > 1 && (
        <Pagination
          label={config.title}
          page={list.data.page}
          totalPages={list.data.totalPages}
          total={list.data.total}
          onPage={(p) => updateSearch({ page: p > 1 ? String(p) : '' })}
        />
      )}
    </>
  );
}

/** The pages list with each title linking to its editor. */
function withPageEditor(config: ListConfig<Page>, workspaceId: string): ListConfig<Page> {
  const [title, ...rest] = config.columns;
  return {
    ...config,
    columns: [
      { label: title!.label, cell: (p) => <Link to={`/w/${workspaceId}/pages/${p.id}/edit`}>{title!.cell(p)}</Link> },
      ...rest,
    ],
  };
}
