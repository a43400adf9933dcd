import type { CategoryRow } from '../../db/schema.js';
import { parseJson } from '../../shared/json.js';
import { categoryJsonLd } from '../seo/category-json-ld.js';
import type { CategoryChainItem } from '../seo/json-ld.js';
import type { Seo } from '../seo/seo.schemas.js';
import type { SiteSettings } from '../workspaces/site-settings.js';
import type { Category } from './categories.schemas.js';

/** The chain from the root down to `id`, from a map holding the category and its ancestors. */
export function categoryChain(id: string, categories: ReadonlyMap<string, CategoryRow>): CategoryRow[] {
  const chain: CategoryRow[] = [];
  const seen = new Set<string>();
  for (
    let current = categories.get(id);
    current && !seen.has(current.id);
    current = current.parent_id ? categories.get(current.parent_id) : undefined
  ) {
    seen.add(current.id);
    chain.unshift(current);
  }
  return chain;
}

export function chainForLd(chain: readonly CategoryRow[]): CategoryChainItem[] {
  return chain.map((row, index) => ({
    slug: row.slug,
    name: row.name,
    path: chain
      .slice(0, index + 1)
      .map((c) => c.slug)
      .join('/'),
    breadcrumbsTitle: parseJson<Seo>(row.seo)?.breadcrumbsTitle,
  }));
}

export function presentCategory(
  row: CategoryRow,
  categories: ReadonlyMap<string, CategoryRow>,
  settings: SiteSettings,
): Category {
  const chain = chainForLd(categoryChain(row.id, categories));
  const path = chain[chain.length - 1]?.path ?? row.slug;
  const description = row.description;
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    slug: row.slug,
    name: row.name,
    description,
    path,
    parentId: row.parent_id,
    sortOrder: row.sort_order,
    isActive: Boolean(row.is_active),
    seo: parseJson<Seo>(row.seo),
    collectionMetadata: parseJson(row.collection_metadata),
    jsonLd: categoryJsonLd({ name: row.name, description, chain }, settings),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
