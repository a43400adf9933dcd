import { Empty, ErrorMessage, Loading, NOT_OFFERED } from '../components/Status';
import { Link } from '../router';
import { can } from '../session';
import type { Category, WorkspaceSummary } from '../types';
import { CategoryForm, MoveCategoryDialog } from './CategoryForm';
import { buildTree, loadCategories, MAX_CATEGORIES, type CategoryNode } from './category-tree';
import { DeleteDialog } from './DeleteDialog';
import { count } from './feedback';
import { Done, ScreenHeader, useScreenActions } from './list';
import { keys, useApi } from '../queries';

type Action = { kind: 'create' } | { kind: 'edit' | 'move' | 'delete'; category: Category };

export function CategoriesScreen({ workspace }: { workspace: WorkspaceSummary }) {
  const all = useApi(keys.list(workspace.id, 'categories', { tree: true }), () => loadCategories(workspace.id));
  const { action, setAction, done, finish } = useScreenActions<Action>(all.reload);
  const writable = can(workspace, 'categories:write');
  const items = all.data?.items ?? [];

  return (
    <>
      <ScreenHeader
        title="Categories"
        action={
          writable && (
            <button type="button" className="button-primary" onClick={() => setAction({ kind: 'create' })}>
              Add category
            </button>
          )
        }
      />
      <p className="lead">Categories as a tree: each one under its parent.</p>
      <Done message={done} />
      {all.state === 'error' && <ErrorMessage error={all.error} onRetry={all.reload} notFound={NOT_OFFERED} />}
      {all.state === 'loading' && !all.data && <Loading label="Loading categories…" />}
      {all.data && items.length === 0 && <Empty>No categories yet.</Empty>}
      {items.length > 0 && (
        <div className="tree" aria-busy={all.state === 'loading'}>
          <Branch nodes={buildTree(items)} onAction={writable ? setAction : null} />
        </div>
      )}
      {all.data && !all.data.complete && <p className="hint">Only the first {MAX_CATEGORIES} categories are shown.</p>}

      {(action?.kind === 'create' || action?.kind === 'edit') && (
        <CategoryForm
          workspace={workspace}
          items={items}
          category={action.kind === 'edit' ? action.category : null}
          onClose={() => setAction(null)}
          onSaved={(c) => finish(`Category “${c.name}” saved.`)}
        />
      )}
      {action?.kind === 'move' && (
        <MoveCategoryDialog
          workspace={workspace}
          items={items}
          category={action.category}
          onClose={() => setAction(null)}
          onMoved={(c) => finish(`“${c.name}” moved: its path is now /${c.path}.`)}
        />
      )}
      {action?.kind === 'delete' && (
        <DeleteDialog
          title={`Delete category “${action.category.name}”?`}
          confirmLabel="Delete category"
          workspace={workspace}
          path={`/categories/${action.category.id}`}
          onClose={() => setAction(null)}
          onDeleted={() => finish(`Category “${action.category.name}” deleted.`)}
          explainConflict={async (error) => {
            const children = Number(error.details?.children ?? 0);
            const posts = Number(error.details?.posts ?? 0);
            const what = [
              children > 0 ? count(children, 'subcategory', 'subcategories') : '',
              posts > 0 ? count(posts, 'post') : '',
            ].filter(Boolean);
            const steps = [
              children > 0 ? 'move or delete its subcategories' : '',
              posts > 0 ? 'give its posts another category' : '',
            ].filter(Boolean);
            return (
              <>
                <p>
                  <strong>
                    “{action.category.name}” still has {what.join(' and ')}.
                  </strong>{' '}
                  First {steps.join(', and ')}; nothing is deleted along with it.
                </p>
                {posts > 0 && can(workspace, 'posts:read') && (
                  <p>
                    <Link to={`/w/${workspace.id}/posts?categoryId=${action.category.id}`}>
                      See the posts in {action.category.name}
                    </Link>
                  </p>
                )}
              </>
            );
          }}
        >
          <p>The category is removed from this workspace. This cannot be undone.</p>
        </DeleteDialog>
      )}
    </>
  );
}

function Branch({ nodes, onAction }: { nodes: CategoryNode[]; onAction: ((action: Action) => void) | null }) {
  return (
    <ul>
      {nodes.map(({ category, children }) => (
        <li key={category.id}>
          <div className="tree-row">
            <span className="tree-item">
              <span>{category.name}</span> <span className="mono hint">/{category.path}</span>
              {!category.isActive && <span className="hint"> (inactive)</span>}
            </span>
            {onAction && (
              <span className="row-actions">
                <button type="button" className="button-small" onClick={() => onAction({ kind: 'edit', category })}>
                  Edit<span className="visually-hidden"> {category.name}</span>
                </button>
                <button type="button" className="button-small" onClick={() => onAction({ kind: 'move', category })}>
                  Move<span className="visually-hidden"> {category.name}</span>
                </button>
                <button
                  type="button"
                  className="button-small button-danger-quiet"
                  onClick={() => onAction({ kind: 'delete', category })}
                >
                  Delete<span className="visually-hidden"> {category.name}</span>
                </button>
              </span>
            )}
          </div>
          {children.length > 0 && <Branch nodes={children} onAction={onAction} />}
        </li>
      ))}
    </ul>
  );
}
