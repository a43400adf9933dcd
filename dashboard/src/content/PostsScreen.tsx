import { useEffect, useState, type FormEvent } from 'react';
import { api, withQuery, ws } from '../api';
import { keys, useApi } from '../queries';
import { Field, SelectField } from '../components/Field';
import { Pagination } from '../components/Pagination';
import { Badge, Empty, ErrorMessage, Loading } from '../components/Status';
import { formatTime } from '../hooks';
import { Link, useRouter, useSearchState } from '../router';
import type { Author, Category, Paginated, Post, Tag, WorkspaceSummary } from '../types';
import { canDraft } from '../session';

const STATUSES = ['draft', 'published', 'archived', 'scheduled'] as const;
const UNCATEGORISED = '(none)';
const FILTER_NAMES = ['q', 'status', 'categoryId', 'authorId', 'tagId', 'sort', 'page'] as const;

const SORTS = [
  { value: '', label: 'Newest first' },
  { value: 'createdAt:asc', label: 'Oldest first' },
  { value: 'updatedAt:desc', label: 'Recently updated' },
  { value: 'publishedAt:desc', label: 'Recently published' },
  { value: 'title:asc', label: 'Title, A to Z' },
  { value: 'title:desc', label: 'Title, Z to A' },
  { value: 'status:asc', label: 'Status' },
  { value: 'seoScore:desc', label: 'SEO score, highest first' },
  { value: 'readabilityScore:desc', label: 'Readability, highest first' },
];

export const STATUS_TONE: Record<string, 'good' | 'warn' | 'neutral' | 'bad'> = {
  published: 'good',
  draft: 'neutral',
  scheduled: 'warn',
  archived: 'bad',
};

/** Options for a filter; a list this member may not read (or this server lacks) leaves only "Any". */
function useOptions<T>(workspaceId: string, resource: string, label: (item: T) => string, id: (item: T) => string) {
  const list = useApi(keys.list(workspaceId, resource, { pageSize: 100 }), () =>
    api.get<Paginated<T>>(ws(workspaceId, `/${resource}`), { pageSize: 100 }),
  );
  return (list.data?.data ?? []).map((item) => ({ value: id(item), label: label(item) }));
}

export function PostsScreen({ workspace }: { workspace: WorkspaceSummary }) {
  const { location } = useRouter();
  const [filters, updateFilters] = useSearchState(FILTER_NAMES);
  const [q, setQ] = useState(filters.q);
  // Back and Forward change the search in the URL; the box shows the one in effect.
  useEffect(() => setQ(filters.q), [filters.q]);
  const page = Math.max(1, Number(filters.page) || 1);

  // A new filter starts at its first page.
  const setFilters = (changes: Partial<typeof filters>) => updateFilters({ page: '', ...changes });

  const posts = useApi(keys.list(workspace.id, 'posts', { search: location.search.toString() }), () => {
    const [orderBy, order] = filters.sort ? filters.sort.split(':') : [undefined, undefined];
    let path = withQuery(ws(workspace.id, '/posts'), {
      page,
      pageSize: 20,
      q: filters.q,
      status: filters.status,
      categoryId: filters.categoryId === UNCATEGORISED ? undefined : filters.categoryId,
      authorId: filters.authorId,
      tagId: filters.tagId,
      orderBy,
      order,
    });
    // An empty categoryId means "uncategorised" to the API, so it has to be sent empty on purpose.
    if (filters.categoryId === UNCATEGORISED) path += `${path.includes('?') ? '&' : '?'}categoryId=`;
    return api.get<Paginated<Post>>(path);
  });

  const categories = useOptions<Category>(
    workspace.id,
    'categories',
    (c) => c.path || c.name,
    (c) => c.id,
  );
  const authors = useOptions<Author>(
    workspace.id,
    'authors',
    (a) => a.displayName,
    (a) => a.id,
  );
  const tags = useOptions<Tag>(
    workspace.id,
    'tags',
    (t) => t.name,
    (t) => t.id,
  );

  const search = (event: FormEvent) => {
    event.preventDefault();
    setFilters({ q: q.trim() });
  };

  return (
    <>
      <div className="page-header">
        <h1>Posts</h1>
        {canDraft(workspace, 'posts') && (
          <Link to={`/w/${workspace.id}/posts/new`} className="link-button">
            New post
          </Link>
        )}
      </div>
      <form className="filters" onSubmit={search} role="search" aria-label="Filter posts">
        <div className="field-row">
          <Field
            label="Search"
            type="search"
            placeholder="Title, excerpt or text"
            value={q}
            onChange={(e) => setQ(e.target.value)}
          />
          <button type="submit">Search</button>
        </div>
        <div className="filter-grid">
          <SelectField
            label="Status"
            value={filters.status}
            onChange={(e) => setFilters({ status: e.target.value })}
            options={[
              { value: '', label: 'Any status' },
              ...STATUSES.map((s) => ({ value: s, label: s[0]!.toUpperCase() + s.slice(1) })),
            ]}
          />
          <SelectField
            label="Category"
            value={filters.categoryId}
            onChange={(e) => setFilters({ categoryId: e.target.value })}
            options={[
              { value: '', label: 'Any category' },
              { value: UNCATEGORISED, label: 'Uncategorised' },
              ...categories,
            ]}
          />
          <SelectField
            label="Author"
            value={filters.authorId}
            onChange={(e) => setFilters({ authorId: e.target.value })}
            options={[{ value: '', label: 'Any author' }, ...authors]}
          />
          <SelectField
            label="Tag"
            value={filters.tagId}
            onChange={(e) => setFilters({ tagId: e.target.value })}
            options={[{ value: '', label: 'Any tag' }, ...tags]}
          />
          <SelectField
            label="Sort by"
            value={filters.sort}
            onChange={(e) => setFilters({ sort: e.target.value })}
            options={SORTS}
          />
        </div>
      </form>

      {posts.state === 'error' && (
        <ErrorMessage
          error={posts.error}
          onRetry={posts.reload}
          notFound="This server does not offer the posts list to the dashboard yet."
        />
      )}
      {posts.state === 'loading' && !posts.data && <Loading label="Loading posts…" />}
      {posts.data && posts.data.data.length === 0 && (
        <Empty>
          {location.search.toString() ? 'No posts match.' : 'No posts yet.'}
          {canDraft(workspace, 'posts') && (
            <>
              {' '}
              <Link to={`/w/${workspace.id}/posts/new`}>Write the first one</Link>.
            </>
          )}
        </Empty>
      )}
      {posts.data && posts.data.data.length > 0 && (
        <table className="table" aria-busy={posts.state === 'loading'}>
          <caption className="visually-hidden">Posts</caption>
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">Status</th>
              <th scope="col">Author</th>
              <th scope="col">Category</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {posts.data.data.map((post) => (
              <tr key={post.id}>
                <th scope="row" data-label="Title">
                  <Link to={`/w/${workspace.id}/posts/${post.id}`}>{post.title || '(untitled)'}</Link>
                </th>
                <td data-label="Status">
                  <Badge tone={STATUS_TONE[post.status] ?? 'neutral'}>{post.status}</Badge>
                </td>
                <td data-label="Author">{post.author?.displayName ?? '—'}</td>
                <td data-label="Category">{post.category?.name ?? '—'}</td>
                <td data-label="Updated">
                  <time dateTime={post.updatedAt}>{formatTime(post.updatedAt)}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {posts.data && posts.data.totalPages > 1 && (
        <Pagination
          label="Posts"
          page={posts.data.page}
          totalPages={posts.data.totalPages}
          total={posts.data.total}
          onPage={(p) => setFilters({ page: p > 1 ? String(p) : '' })}
        />
      )}
    </>
  );
}
