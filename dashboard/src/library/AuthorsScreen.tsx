import { Badge } from '../components/Status';
import { thumbnailUrl } from '../media/thumbnail';
import { Link, useSearchState } from '../router';
import { can } from '../session';
import type { Author, WorkspaceSummary } from '../types';
import { AuthorForm } from './AuthorForm';
import { DeleteDialog, postsMatching } from './DeleteDialog';
import { count } from './feedback';
import {
  Done,
  LibraryTable,
  ScreenHeader,
  SearchForm,
  time,
  useLibraryList,
  type Column,
  useScreenActions,
  RowActions,
} from './list';

const SHOW = [
  { value: '', label: 'All' },
  { value: 'true', label: 'Active' },
  { value: 'false', label: 'Inactive' },
];

type Action = { kind: 'create' } | { kind: 'edit' | 'delete'; author: Author };

const COLUMNS: Column<Author>[] = [
  {
    label: 'Name',
    cell: (a) => (
      <span className="avatar-row">
        {a.avatarMedia && <img className="avatar avatar-small" src={thumbnailUrl(a.avatarMedia, 160)} alt="" />}
        {a.displayName}
      </span>
    ),
  },
  { label: 'Slug', cell: (a) => <span className="mono">{a.slug}</span> },
  {
    label: 'Status',
    cell: (a) => <Badge tone={a.isActive ? 'good' : 'neutral'}>{a.isActive ? 'Active' : 'Inactive'}</Badge>,
  },
  { label: 'Updated', cell: (a) => time(a.updatedAt) },
];

export function AuthorsScreen({ workspace }: { workspace: WorkspaceSummary }) {
  const [filter, updateFilter] = useSearchState(['active'] as const);
  const active = filter.active === 'true' || filter.active === 'false' ? filter.active : '';
  const { list, q, updateSearch } = useLibraryList<Author>(workspace, 'authors', active ? { isActive: active } : {});
  const { action, setAction, done, finish } = useScreenActions<Action>(list.reload);
  const writable = can(workspace, 'authors:write');

  return (
    <>
      <ScreenHeader
        title="Authors"
        action={
          writable && (
            <button type="button" className="button-primary" onClick={() => setAction({ kind: 'create' })}>
              Add author
            </button>
          )
        }
      />
      <p className="lead">The people posts are credited to.</p>
      <SearchForm label="Search authors" q={q} onSearch={(text) => updateSearch({ q: text, page: '' })} />
      <fieldset className="segmented">
        <legend>Show</legend>
        {SHOW.map((option) => (
          <label key={option.value}>
            <input
              type="radio"
              name="author-filter"
              value={option.value}
              checked={active === option.value}
              onChange={() => updateFilter({ active: option.value })}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </fieldset>
      <Done message={done} />
      <LibraryTable
        title="Authors"
        plural="authors"
        list={list}
        q={q || active}
        columns={COLUMNS}
        onPage={(p) => updateSearch({ page: p > 1 ? String(p) : '' })}
        actions={
          writable
            ? (author) => (
                <RowActions
                  name={author.displayName}
                  onEdit={() => setAction({ kind: 'edit', author })}
                  onDelete={() => setAction({ kind: 'delete', author })}
                />
              )
            : undefined
        }
      />
      {action?.kind === 'create' && (
        <AuthorForm
          workspace={workspace}
          author={null}
          onClose={() => setAction(null)}
          onSaved={(a) => finish(`Author “${a.displayName}” added.`)}
        />
      )}
      {action?.kind === 'edit' && (
        <AuthorForm
          workspace={workspace}
          author={action.author}
          onClose={() => setAction(null)}
          onSaved={(a) => finish(`Author “${a.displayName}” saved.`)}
        />
      )}
      {action?.kind === 'delete' && (
        <DeleteDialog
          title={`Delete author “${action.author.displayName}”?`}
          confirmLabel="Delete author"
          workspace={workspace}
          path={`/authors/${action.author.id}`}
          onClose={() => setAction(null)}
          onDeleted={() => finish(`Author “${action.author.displayName}” deleted.`)}
          explainConflict={async (error) => {
            const posts =
              (await postsMatching(workspace, { authorId: action.author.id })) ??
              (typeof error.details?.posts === 'number' ? error.details.posts : null);
            return (
              <>
                <p>
                  <strong>{posts === null ? 'Used by posts.' : `Used by ${count(posts, 'post')}.`}</strong> An author
                  cannot be deleted while posts are credited to them. Give those posts another author, or delete them,
                  first; or untick Active to stop offering this author.
                </p>
                {can(workspace, 'posts:read') && (
                  <p>
                    <Link to={`/w/${workspace.id}/posts?authorId=${action.author.id}`}>
                      See the posts by {action.author.displayName}
                    </Link>
                  </p>
                )}
              </>
            );
          }}
        >
          <p>The author is removed from this workspace. This cannot be undone.</p>
        </DeleteDialog>
      )}
    </>
  );
}
