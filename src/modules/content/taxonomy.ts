import crypto from 'node:crypto';
import type { Insertable, Kysely, Updateable } from 'kysely';
import { withRowLock, type RowLock } from '../../db/locks.js';
import type { Database, TagsTable } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import { searchText } from '../../shared/search.js';
import { claimSlug } from '../../shared/slug-claim.js';
import { idOrSlugKey } from '../../shared/slug.js';
import { nowIso } from '../../shared/time.js';
import type { ContentTransaction } from '../../writes/content-transaction.js';

type Executor = Kysely<Database>;

/** The columns every taxonomy table has (tags, categories): what the shared queries and rules read. */
interface TaxonomyRow {
  id: string;
  slug: string;
  name: string;
}

/**
 * The queries tags and categories share, each once. The two tables have these columns alike; the queries are
 * typed against `tags` (the narrower of the two) and name the real table, so the SQL is what each repository
 * wrote before. `Row`, `New` and `Patch` are the caller's own row types.
 */
export function taxonomyQueries<Row extends TaxonomyRow, New, Patch>(table: 'tags' | 'categories') {
  const name = table as 'tags';
  const rowsOf = (db: Executor, workspaceId: string) =>
    db.selectFrom(name).where(`${name}.workspace_id`, '=', workspaceId);
  return {
    /** A UUID resolves by id, any other string by slug, in this workspace only. */
    findByIdOrSlug(db: Executor, workspaceId: string, idOrSlug: string, lock?: RowLock): Promise<Row | undefined> {
      const key = idOrSlugKey(idOrSlug);
      return withRowLock(
        rowsOf(db, workspaceId).selectAll(name).where(`${name}.${key.column}`, '=', key.value),
        lock,
      ).executeTakeFirst() as Promise<Row | undefined>;
    },

    async takenSlugs(db: Executor, workspaceId: string, candidates: string[]): Promise<Set<string>> {
      const rows = await rowsOf(db, workspaceId)
        .select(`${name}.slug`)
        .where(`${name}.slug`, 'in', candidates)
        .execute();
      return new Set(rows.map((row) => row.slug));
    },

    async insert(db: ContentTransaction, workspaceId: string, row: New): Promise<void> {
      await db
        .insertInto(name)
        .values({ ...(row as Omit<Insertable<TagsTable>, 'workspace_id'>), workspace_id: workspaceId })
        .execute();
    },

    async update(db: ContentTransaction, workspaceId: string, id: string, patch: Patch): Promise<void> {
      await db
        .updateTable(name)
        .set(patch as Updateable<TagsTable>)
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .execute();
    },

    async delete(db: ContentTransaction, workspaceId: string, id: string): Promise<void> {
      await db.deleteFrom(name).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },
  };
}

/**
 * The rules tags and categories share, each once: a row found by id or slug, a slug claimed free (from the
 * name when none is asked for), and the folded search text of name and slug kept with them.
 */
export function taxonomyRules<Row extends TaxonomyRow>(
  kind: 'tag' | 'category',
  label: 'Tag' | 'Category',
  repo: {
    findByIdOrSlug(db: Executor, workspaceId: string, idOrSlug: string, lock?: RowLock): Promise<Row | undefined>;
    takenSlugs(db: Executor, workspaceId: string, candidates: string[]): Promise<Set<string>>;
  },
) {
  const slugFor = (executor: Executor, workspaceId: string, explicit: string | undefined, name: string) =>
    claimSlug((candidates) => repo.takenSlugs(executor, workspaceId, candidates), explicit, name, kind);

  return {
    async require(executor: Executor, workspaceId: string, idOrSlug: string, lock?: RowLock): Promise<Row> {
      const row = await repo.findByIdOrSlug(executor, workspaceId, idOrSlug, lock);
      if (!row) throw notFound(label);
      return row;
    },

    /** A new row's id, slug, search text and timestamps. */
    async created(trx: Executor, workspaceId: string, body: { name: string; slug?: string | undefined }) {
      const id = crypto.randomUUID();
      const now = nowIso();
      const name = body.name.trim();
      const slug = await slugFor(trx, workspaceId, body.slug, name);
      return { id, slug, search_text: searchText(name, slug), created_at: now, updated_at: now };
    },

    /**
     * What a PATCH adds to the column map's patch: a new name keeps the slug; a slug asked for is claimed when
     * it changes; the search text follows either.
     */
    async renamed(
      trx: Executor,
      workspaceId: string,
      wantedSlug: string | undefined,
      current: Row,
      patch: { name?: string | undefined },
    ): Promise<{ updated_at: string; slug?: string; search_text?: string }> {
      const changes: { updated_at: string; slug?: string; search_text?: string } = { updated_at: nowIso() };
      if (wantedSlug !== undefined && wantedSlug !== current.slug)
        changes.slug = await slugFor(trx, workspaceId, wantedSlug, current.name);
      if (changes.slug !== undefined || patch.name !== undefined)
        changes.search_text = searchText(patch.name ?? current.name, changes.slug ?? current.slug);
      return changes;
    },
  };
}
