import { call, client } from '../api';
import type { Category } from '../types';

const PAGE_SIZE = 100;
// A tree needs every category; past this many the page says so rather than fetching forever.
export const MAX_CATEGORIES = PAGE_SIZE * 20;

export async function loadCategories(workspaceId: string): Promise<{ items: Category[]; complete: boolean }> {
  const items: Category[] = [];
  for (let page = 1; items.length < MAX_CATEGORIES; page += 1) {
    const batch = await call(
      client.GET('/workspaces/{workspaceId}/categories', {
        params: { path: { workspaceId }, query: { page, pageSize: PAGE_SIZE, orderBy: 'sortOrder', order: 'asc' } },
      }),
    );
    items.push(...batch.data);
    if (page >= batch.totalPages) return { items, complete: true };
  }
  return { items, complete: false };
}

export interface CategoryNode {
  category: Category;
  children: CategoryNode[];
}

/** The tree from parentId; a category whose parent is missing is shown at the root rather than lost. */
export function buildTree(items: Category[]): CategoryNode[] {
  const nodes = new Map(items.map((category) => [category.id, { category, children: [] as CategoryNode[] }]));
  const roots: CategoryNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.category.parentId ? nodes.get(node.category.parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

/** The ids of a category and everything under it, as this page last saw them: none of them can be its parent. */
export function selfAndDescendants(items: Category[], id: string): Set<string> {
  const found = new Set([id]);
  for (let grew = true; grew;) {
    grew = false;
    for (const category of items) {
      if (category.parentId && found.has(category.parentId) && !found.has(category.id)) {
        found.add(category.id);
        grew = true;
      }
    }
  }
  return found;
}

/** Where a category may move: the top level, or any category outside its own branch, named by its path. */
export function parentOptions(items: Category[], moving: string | null): Array<{ value: string; label: string }> {
  const excluded = moving ? selfAndDescendants(items, moving) : new Set<string>();
  const options = items
    .filter((category) => !excluded.has(category.id))
    .sort((a, b) => a.path.localeCompare(b.path))
    .map((category) => ({ value: category.id, label: `${category.name} (/${category.path})` }));
  return [{ value: '', label: 'None: a top-level category' }, ...options];
}
