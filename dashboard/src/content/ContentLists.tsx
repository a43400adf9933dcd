import { lazy, Suspense, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { api, ws } from '../api';
import { Field } from '../components/Field';
import { Pagination } from '../components/Pagination';
import { Badge, Empty, ErrorMessage, Loading, NOT_OFFERED } from '../components/Status';
import { formatTime, useAsync } from '../hooks';
import { useSearchState } from '../router';
import type { Author, LinkHealth, Page, Paginated, Redirect, Tag, WorkspaceSummary } from '../types';
import { CategoryTree } from './CategoryTree';

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

const AUTHORS: ListConfig<Author> = {
  title: 'Authors',
  lead: 'The people posts are credited to.',
  plural: 'authors',
  searchable: true,
  columns: [
    { label: 'Name', cell: (a) => a.displayName },
    { label: 'Slug', cell: (a) => <span className="mono">{a.slug}</span> },
    {
      label: 'Status',
      cell: (a) => <Badge tone={a.isActive ? 'good' : 'neutral'}>{a.isActive ? 'Active' : 'Inactive'}</Badge>,
    },
    { label: 'Updated', cell: (a) => time(a.updatedAt) },
  ],
};

const TAGS: ListConfig<Tag> = {
  title: 'Tags',
  lead: 'Labels attached to posts.',
  plural: 'tags',
  searchable: true,
  columns: [
    { label: 'Name', cell: (t) => t.name },
    { label: 'Slug', cell: (t) => <span className="mono">{t.slug}</span> },
    { label: 'Created', cell: (t) => time(t.createdAt) },
  ],
};

const REDIRECTS: ListConfig<Redirect> = {
  title: 'Redirects',
  lead: 'Old paths and where they now lead.',
  plural: 'redirects',
  searchable: false,
  columns: [
    { label: 'From', cell: (r) => <span className="mono">{r.fromPath}</span> },
    { label: 'To', cell: (r) => <span className="mono">{r.toPath}</span> },
    { label: 'Status', cell: (r) => String(r.statusCode) },
    { label: 'Updated', cell: (r) => time(r.updatedAt) },
  ],
};

const LINK_HEALTH: ListConfig<LinkHealth> = {
  title: 'Link health',
  lead: 'Broken paths your site reported, most frequent first.',
  plural: 'reports',
  searchable: true,
  orderBy: 'hitCount',
  columns: [
    { label: 'Path', cell: (l) => <span className="mono">{l.path}</span> },
    { label: 'Status', cell: (l) => String(l.statusCode) },
    { label: 'Hits', cell: (l) => l.hitCount.toLocaleString() },
    { label: 'Referrer', cell: (l) => (l.referrer ? <span className="mono">{l.referrer}</span> : '—') },
    { label: 'Last seen', cell: (l) => time(l.lastSeenAt) },
  ],
};

export function ContentListScreen({ workspace, resource }: { workspace: WorkspaceSummary; resource: string }) {
  switch (resource) {
    case 'pages':
      return <ResourceList workspace={workspace} path="pages" config={PAGES} />;
    case 'authors':
      return <ResourceList workspace={workspace} path="authors" config={AUTHORS} />;
    case 'tags':
      return <ResourceList workspace={workspace} path="tags" config={TAGS} />;
    case 'redirects':
      return <ResourceList workspace={workspace} path="redirects" config={REDIRECTS} />;
    case 'link-health':
      return <ResourceList workspace={workspace} path="link-health" config={LINK_HEALTH} />;
    case 'media':
      return (
        <Suspense fallback={<Loading label="Loading media…" />}>
          <MediaLibrary workspace={workspace} />
        </Suspense>
      );
    case 'categories':
      return <CategoryTree workspace={workspace} />;
    default:
      return <h1>Not found</h1>;
  }
}

function ResourceList<T extends { id: string }>({
  workspace,
  path,
  config,
}: {
  workspace: WorkspaceSummary;
  path: string;
  config: ListConfig<T>;
}) {
  const [search, updateSearch] = useSearchState(['q', 'page'] as const);
  const query = search.q;
  const page = Math.max(1, Number(search.page) || 1);
  const [q, setQ] = useState(query);
  // Back and Forward change the search in the URL; the box shows the one in effect.
  useEffect(() => setQ(query), [query]);
  const list = useAsync(
    () =>
      api.get<Paginated<T>>(ws(workspace.id, `/${path}`), {
        page,
        pageSize: 20,
        q: query,
        ...(config.orderBy ? { orderBy: config.orderBy, order: 'desc' } : {}),
      }),
    [workspace.id, path, page, query],
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    updateSearch({ q: q.trim(), page: '' });
  };
  const [first, ...rest] = config.columns;

  return (
    <>
      <h1>{config.title}</h1>
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
        <Empty>{query ? `No ${config.plural} match.` : `No ${config.plural} yet.`}</Empty>
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
