import type { Kysely } from 'kysely';
import { checkSeoMedia } from '../../blocks/image-references.js';
import type { DatabaseHandle } from '../../db/database.js';
import type { LockStrength } from '../../db/locks.js';
import type { CategoryRow, Database } from '../../db/schema.js';
import { conflict, invalid } from '../../errors.js';
import { pageOf, type PageRequest, type Paginated } from '../../shared/paging.js';
import { foldForSearch } from '../../shared/search.js';
import { checkExplicitSlug } from '../../shared/slug-claim.js';
import { contentWrite } from '../../writes/content-write.js';
import type { Actor } from '../../security/actor.js';
import { taxonomyRules } from '../content/taxonomy.js';
import { loadSiteSettings } from '../workspaces/site-settings.js';
import { presentCategory } from './categories.presenter.js';
import { categoryColumns } from './categories.columns.js';
import { categoriesRepository as repo, type CategoryPatch } from './categories.repository.js';
import {
  type Category,
  type CategoryCreateBody,
  type CategoryListQuery,
  type CategorySortKey,
  type CategoryUpdateBody,
} from './categories.schemas.js';

type Executor = Kysely<Database>;

const parentIssue = (message: string) => invalid([{ in: 'body', path: '/parentId', message }]);

/** The columns the column map writes on create: all of a category's but those the service computes. */
type NewCategoryColumns = Omit<
  CategoryRow,
  'id' | 'workspace_id' | 'slug' | 'search_text' | 'created_at' | 'updated_at'
>;

export function createCategoriesService(database: DatabaseHandle) {
  const { db, dialect } = database;

  /**
   * Two queries whatever the number of categories: the site settings, and every ancestor chain in one recursive
   * query.
   */
  async function present(executor: Executor, workspaceId: string, rows: readonly CategoryRow[]): Promise<Category[]> {
    const [settings, chains] = await Promise.all([
      loadSiteSettings(executor, workspaceId),
      repo.findManyWithAncestors(
        executor,
        workspaceId,
        rows.map((row) => row.id),
      ),
    ]);
    const byId = new Map(chains.map((row) => [row.id, row]));
    return rows.map((row) => presentCategory(row, byId, settings));
  }

  async function presentOne(executor: Executor, workspaceId: string, row: CategoryRow): Promise<Category> {
    const [category] = await present(executor, workspaceId, [row]);
    return category!;
  }

  const categories = taxonomyRules<CategoryRow>('category', 'Category', repo);
  const requireCategory = (executor: Executor, workspaceId: string, idOrSlug: string, lock?: LockStrength) =>
    categories.require(executor, workspaceId, idOrSlug, lock ? { dialect, strength: lock } : undefined);

  /** The parent must be a category of this workspace; it is locked so that it cannot vanish before we commit. */
  async function requireParent(executor: Executor, workspaceId: string, parentId: string): Promise<CategoryRow> {
    const parent = await repo.findByIdOrSlug(executor, workspaceId, parentId, { dialect, strength: 'keyShare' });
    if (!parent) throw parentIssue('no category with this id in this workspace');
    return parent;
  }

  return {
    async list(
      actor: Actor,
      query: CategoryListQuery,
      page: PageRequest<CategorySortKey>,
    ): Promise<Paginated<Category>> {
      const filter = {
        q: query.q ? foldForSearch(query.q) : undefined,
        parentId: query.parentId === '' ? null : query.parentId,
      };
      const { rows, total } = await repo.list(db, dialect, actor.workspaceId, filter, page);
      return pageOf(page, await present(db, actor.workspaceId, rows), total);
    },

    async get(actor: Actor, idOrSlug: string): Promise<Category> {
      return presentOne(db, actor.workspaceId, await requireCategory(db, actor.workspaceId, idOrSlug));
    },

    async create(actor: Actor, body: CategoryCreateBody): Promise<Category> {
      checkExplicitSlug(body.slug);
      return contentWrite(database, actor, async ({ trx, workspaceId, changed }) => {
        if (body.parentId) await requireParent(trx, workspaceId, body.parentId);
        await checkSeoMedia(trx, dialect, workspaceId, body.seo);
        const { id, slug, ...rest } = await categories.created(trx, workspaceId, body);
        await repo.insert(trx, workspaceId, {
          ...(categoryColumns.write(body, { create: true }) as NewCategoryColumns),
          id,
          slug,
          ...rest,
        });
        changed({ type: 'category', id, slug, action: 'created' });
        return presentOne(trx, workspaceId, await requireCategory(trx, workspaceId, id));
      });
    },

    /**
     * Partial: only sent fields change; a new name keeps the slug. A new parent must not be the
     * category itself nor one of its descendants (400). Descendants' paths follow on their next read.
     */
    async update(actor: Actor, idOrSlug: string, body: CategoryUpdateBody): Promise<Category> {
      checkExplicitSlug(body.slug);
      return contentWrite(database, actor, async ({ trx, workspaceId, changed, serialize }) => {
        const current = await requireCategory(trx, workspaceId, idOrSlug, 'noKeyUpdate');
        await checkSeoMedia(trx, dialect, workspaceId, body.seo, current.seo);
        const moving = body.parentId !== undefined && body.parentId !== null && body.parentId !== current.parent_id;
        if (moving && body.parentId === current.id) throw parentIssue('a category cannot be its own parent');
        if (moving) await requireParent(trx, workspaceId, body.parentId!);
        // Two moves in one workspace run one after the other, so the cycle check below sees the move that
        // committed first (two crossing moves cannot both pass).
        if (moving) await serialize();
        if (moving) {
          const ancestors = await repo.findManyWithAncestors(trx, workspaceId, [body.parentId!]);
          if (ancestors.some((row) => row.id === current.id))
            throw parentIssue('the new parent is a descendant of this category, which would make a cycle');
        }

        const written = categoryColumns.write(body) as CategoryPatch;
        const patch: CategoryPatch = {
          ...written,
          ...(await categories.renamed(trx, workspaceId, body.slug, current, written)),
        };
        await repo.update(trx, workspaceId, current.id, patch);
        const category = await requireCategory(trx, workspaceId, current.id);
        changed({ type: 'category', id: category.id, slug: category.slug, action: 'updated' });
        return presentOne(trx, workspaceId, category);
      });
    },

    /**
     * Refused (409) while the category has children or live posts. The row is locked first, so a
     * child or a post being attached to it at the same moment is counted or finds it gone.
     * Answers the category as it was.
     */
    async remove(actor: Actor, idOrSlug: string): Promise<Category> {
      return contentWrite(database, actor, async ({ trx, workspaceId, changed }) => {
        const current = await requireCategory(trx, workspaceId, idOrSlug, 'update');
        const { children, posts } = await repo.countDependents(trx, workspaceId, current.id);
        if (children > 0 || posts > 0) {
          const blockers = [
            children > 0 ? `${children} child categor${children === 1 ? 'y' : 'ies'}` : '',
            posts > 0 ? `${posts} live post${posts === 1 ? '' : 's'}` : '',
          ];
          throw conflict(`The category still has ${blockers.filter(Boolean).join(' and ')}`, {
            reason: 'category_in_use',
            children,
            posts,
          });
        }
        const snapshot = await presentOne(trx, workspaceId, current);
        await repo.delete(trx, workspaceId, current.id);
        changed({ type: 'category', id: current.id, slug: current.slug, action: 'deleted' });
        return snapshot;
      });
    },
  };
}

export type CategoriesService = ReturnType<typeof createCategoriesService>;
