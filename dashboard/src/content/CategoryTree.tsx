import { api, ws } from '../api';
import { Empty, ErrorMessage, Loading, NOT_OFFERED } from '../components/Status';
import { useAsync } from '../hooks';
import type { Category, Paginated, WorkspaceSummary } from '../types';

const PAGE_SIZE = 100;
// A tree needs every category; past this many the page says so rather than fetching forever.
const MAX_PAGES = 20;

async function loadAll(workspaceId: string): Promise<{ items: Category[]; complete: boolean }> {
  const items: Category[] = [];
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const batch = await api.get<Paginated<Category>>(ws(workspaceId, '/categories'), {
      page,
      pageSize: PAGE_SIZE,
      orderBy: 'sortOrder',
      order: 'asc',
    });
    items.push(...batch.data);
    if (page >= batch.totalPages) return { items, complete: true };
  }
  return { items, complete: false };
}

interface Node {
  category: Category;
  children: Node[];
}

/** Builds the tree from parentId; a category whose parent is missing is shown at the root rather than lost. */
function buildTree(items: Category[]): Node[] {
  const nodes = new Map(items.map((category) => [category.id, { category, children: [] as Node[] }]));
  const roots: Node[] = [];
  for (const node of nodes.values()) {
    const parent = node.category.parentId ? nodes.get(node.category.parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

function Branch({ nodes }: { nodes: Node[] }) {
  return (
    <ul>
      {nodes.map(({ category, children }) => (
        <li key={category.id}>
          <span className="tree-item">
            <span>{category.name}</span> <span className="mono hint">/{category.path}</span>
            {!category.isActive && <span className="hint"> (inactive)</span>}
          </span>
          {children.length > 0 && <Branch nodes={children} />}
        </li>
      ))}
    </ul>
  );
}

export function CategoryTree({ workspace }: { workspace: WorkspaceSummary }) {
  const all = useAsync(() => loadAll(workspace.id), [workspace.id]);
  return (
    <>
      <h1>Categories</h1>
      <p className="lead">Categories as a tree: each one under its parent.</p>
      {all.state === 'error' && <ErrorMessage error={all.error} onRetry={all.reload} notFound={NOT_OFFERED} />}
      {all.state === 'loading' && !all.data && <Loading label="Loading categories…" />}
      {all.data && all.data.items.length === 0 && <Empty>No categories yet.</Empty>}
      {all.data && all.data.items.length > 0 && (
        <div className="tree">
          <Branch nodes={buildTree(all.data.items)} />
        </div>
      )}
      {all.data && !all.data.complete && (
        <p className="hint">Only the first {PAGE_SIZE * MAX_PAGES} categories are shown.</p>
      )}
    </>
  );
}
