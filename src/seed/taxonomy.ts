import type { AuthorRow, CategoryRow, TagRow } from '../db/schema.js';
import { searchText } from '../shared/search.js';
import { slugFrom } from '../shared/slug.js';
import { AUTHORS, TAGS } from './catalog.js';
import { seededId } from './ids.js';
import type { SeedMedia } from './media.js';
import { CATEGORY_TREE, DOMAIN_NAMES, topicsUnder, type CategoryNode, type DomainName } from './topics.js';

const DAY_MS = 86_400_000;

export interface SeedAuthor {
  row: AuthorRow;
  domain: DomainName;
  handle: string;
}

export interface SeedCategory {
  row: CategoryRow;
  /** 0 for a root, 1 for a child, 2 for a grandchild. */
  depth: number;
  domain: DomainName;
  topics: string[];
}

export interface SeedTag {
  row: TagRow;
  domain: DomainName | null;
}

export interface Taxonomy {
  authors: SeedAuthor[];
  categories: SeedCategory[];
  tags: SeedTag[];
}

function listOf(items: readonly string[]): string {
  const shown = items.length > 4 ? [...items.slice(0, 4), 'more'] : items;
  return shown.length === 1 ? shown[0]! : `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

/** Authors (avatars are the first twelve media), the category tree in breadth-first order, and tags. */
export function planTaxonomy(workspaceId: string, media: readonly SeedMedia[], anchor: number): Taxonomy {
  const created = (daysBeforeTwoYears: number) => new Date(anchor - (730 + daysBeforeTwoYears) * DAY_MS).toISOString();

  const authors = AUTHORS.map((spec, index): SeedAuthor => {
    const slug = slugFrom(spec.name, 'author');
    const handle = slug.replace(/-/g, '_');
    const person = {
      jobTitle: spec.jobTitle,
      worksFor: spec.worksFor,
      alumniOf: spec.alumniOf,
      knowsAbout: spec.knowsAbout,
      ...(spec.award ? { award: spec.award } : {}),
      ...(spec.honorificPrefix ? { honorificPrefix: spec.honorificPrefix } : {}),
      ...(spec.honorificSuffix ? { honorificSuffix: spec.honorificSuffix } : {}),
    };
    const at = created(40 - index);
    return {
      domain: spec.domain,
      handle,
      row: {
        id: seededId(workspaceId, 'author', index),
        workspace_id: workspaceId,
        slug,
        display_name: spec.name,
        bio: spec.bio,
        credentials: spec.credentials ?? null,
        avatar_media_id: media[index]?.row.id ?? null,
        same_as: JSON.stringify([`https://example.com/people/${slug}`, `https://mastodon.example/@${handle}`]),
        is_active: true,
        seo: JSON.stringify({ title: `${spec.name}, ${spec.jobTitle}`, description: spec.bio }),
        person: JSON.stringify(person),
        search_text: searchText(spec.name, slug),
        created_at: at,
        updated_at: at,
      },
    };
  });

  const categories: SeedCategory[] = [];
  const addCategory = (
    node: CategoryNode,
    domain: DomainName,
    depth: number,
    parentId: string | null,
    sortOrder: number,
  ): string => {
    const id = seededId(workspaceId, 'category', categories.length);
    const slug = slugFrom(node.name, 'category');
    const topics = topicsUnder(node);
    const description = `Practical writing on ${listOf(topics)}.`;
    const at = created(50 - categories.length);
    categories.push({
      depth,
      domain,
      topics,
      row: {
        id,
        workspace_id: workspaceId,
        slug,
        name: node.name,
        description,
        parent_id: parentId,
        sort_order: sortOrder,
        is_active: true,
        seo: JSON.stringify({ title: `${node.name} articles`, description }),
        collection_metadata: JSON.stringify({ includeChildCategories: depth < 2, sortPostsBy: 'publishedAt' }),
        search_text: searchText(node.name, slug),
        created_at: at,
        updated_at: at,
      },
    });
    return id;
  };
  // Breadth first, so that inserting level by level (or in this order) always finds the parent.
  const roots = DOMAIN_NAMES.map((domain, index) => ({
    domain,
    node: CATEGORY_TREE[domain],
    id: addCategory(CATEGORY_TREE[domain], domain, 0, null, index),
  }));
  const children = roots.flatMap(({ domain, node, id }) =>
    (node.children ?? []).map((child, index) => ({
      domain,
      node: child,
      id: addCategory(child, domain, 1, id, index),
    })),
  );
  for (const { domain, node, id } of children)
    (node.children ?? []).forEach((leaf, index) => addCategory(leaf, domain, 2, id, index));

  const tags = TAGS.map(({ name, domain }, index): SeedTag => {
    const at = created(20 - index / 10);
    const slug = slugFrom(name, 'tag');
    return {
      domain,
      row: {
        id: seededId(workspaceId, 'tag', index),
        workspace_id: workspaceId,
        slug,
        name,
        search_text: searchText(name, slug),
        seo:
          index % 3 === 0
            ? JSON.stringify({
                title: `Posts tagged ${name}`,
                description: `Every article about ${name.toLowerCase()}.`,
              })
            : null,
        created_at: at,
        updated_at: at,
      },
    };
  });

  return { authors, categories, tags };
}
