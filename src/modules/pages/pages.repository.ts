import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../../db/dialects/dialect.js';
import { withRowLock, type RowLock } from '../../db/locks.js';
import type { Database, PagesTable } from '../../db/schema.js';
import type { ContentTransaction } from '../../writes/content-transaction.js';
import type { Insertable, Selectable } from 'kysely';
import { impliedTotal, type PageRequest } from '../../shared/paging.js';
import { idOrSlugKey } from '../../shared/slug.js';
import { isEmptyQuery, type WordQuery } from '../../shared/search-words.js';
import type { PageSortKey } from './pages.schemas.js';
import { nextVersion, type Version } from '../../writes/versions.js';

type Executor = Kysely<Database>;
export type PageRow = Selectable<PagesTable>;
/** A change of a page's row; its new `updated_at` is the repository's to set (pagesRepository.update). */
export type PagePatch = Partial<Omit<PageRow, 'id' | 'workspace_id' | 'created_at' | 'updated_at'>>;

const SORT_COLUMNS = { createdAt: 'created_at', updatedAt: 'updated_at', title: 'title', status: 'status' } as const;

function livePages(db: Executor, workspaceId: string) {
  return db.selectFrom('pages').where('workspace_id', '=', workspaceId).where('deleted_at', 'is', null);
}

/** The largest body that comes with its page in a list; larger ones are loaded apart, in batches. */
const INLINE_BODY_BYTES = 1024 * 1024;

/** A page's columns as a list reads them, but for its body (and the search text, which serves the index). */
const LISTED_COLUMNS = [
  'id',
  'workspace_id',
  'slug',
  'title',
  'page_type',
  'status',
  'published_at',
  'seo',
  'deleted_at',
  'created_at',
  'updated_at',
] as const satisfies ReadonlyArray<keyof PageRow>;

/** All SQL of pages; every function takes the workspace id first, after the executor. */
export const pagesRepository = {
  async list(
    db: Executor,
    dialect: DialectHelpers,
    workspaceId: string,
    filter: { q?: WordQuery; status?: PageRow['status'] },
    page: PageRequest<PageSortKey>,
  ) {
    if (filter.q && isEmptyQuery(filter.q)) return { rows: [], total: 0 };
    let query = livePages(db, workspaceId);
    if (filter.q) query = query.where(dialect.wordsMatch('pages', { workspaceId, status: filter.status }, filter.q));
    if (filter.status) query = query.where('status', '=', filter.status);
    const rows = await query
      .select(LISTED_COLUMNS)
      // A body too large to come with a page is loaded apart, in batches (read/page-reads.ts).
      // The text measures the body on both dialects (PostgreSQL keeps the blocks as jsonb, compressed).
      .select([
        sql<string | null>`case when octet_length(body_text) <= ${INLINE_BODY_BYTES} then body_json end`.as(
          'body_json',
        ),
        sql<string | null>`case when octet_length(body_text) <= ${INLINE_BODY_BYTES} then body_text end`.as(
          'body_text',
        ),
        sql<number>`octet_length(body_text)`.as('body_bytes'),
      ])
      .orderBy(SORT_COLUMNS[page.orderBy ?? 'createdAt'], page.order)
      .orderBy('id', page.order)
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute();
    const total =
      impliedTotal(page, rows.length) ??
      Number((await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()).total);
    return { rows, total };
  },

  /** The bodies (blocks and text) of pages a list found without them, by id. */
  async findBodies(
    db: Executor,
    workspaceId: string,
    ids: readonly string[],
  ): Promise<Map<string, Pick<PageRow, 'body_json' | 'body_text'>>> {
    if (ids.length === 0) return new Map();
    const rows = await db
      .selectFrom('pages')
      .select(['id', 'body_json', 'body_text'])
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', [...ids])
      .execute();
    return new Map(rows.map((row) => [row.id, row]));
  },

  /** Whole rows of pages by id, live or not (a write's revisions read the rows it left). */
  findByIds(db: Executor, workspaceId: string, ids: readonly string[]): Promise<PageRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('pages')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', [...ids])
      .execute();
  },

  findByIdOrSlug(db: Executor, workspaceId: string, idOrSlug: string, lock?: RowLock): Promise<PageRow | undefined> {
    const key = idOrSlugKey(idOrSlug);
    return withRowLock(
      livePages(db, workspaceId).selectAll().where(key.column, '=', key.value),
      lock,
    ).executeTakeFirst();
  },

  /** The id of the live page `idOrSlug` names, for routes about its history (revisions). */
  async liveId(db: Executor, workspaceId: string, idOrSlug: string): Promise<string | undefined> {
    const key = idOrSlugKey(idOrSlug);
    const row = await livePages(db, workspaceId).select('id').where(key.column, '=', key.value).executeTakeFirst();
    return row?.id;
  },

  async takenSlugs(db: Executor, workspaceId: string, candidates: string[]): Promise<Set<string>> {
    const rows = await livePages(db, workspaceId).select('slug').where('slug', 'in', candidates).execute();
    return new Set(rows.map((row) => row.slug));
  },

  async insert(
    db: ContentTransaction,
    workspaceId: string,
    row: Omit<Insertable<PagesTable>, 'workspace_id'>,
  ): Promise<void> {
    await db
      .insertInto('pages')
      .values({ ...row, workspace_id: workspaceId })
      .execute();
  },

  /**
   * Every update of a page's row moves its version (answered as the new `updated_at`), so no writer can change
   * a page and leave a client's If-Match passing. `page` is the row as the writer read it, under its lock.
   */
  async update(
    db: ContentTransaction,
    workspaceId: string,
    page: Pick<PageRow, 'id' | 'updated_at'>,
    patch: PagePatch,
    now: string = new Date().toISOString(),
  ): Promise<Version> {
    const version = nextVersion(page.updated_at, now);
    await db
      .updateTable('pages')
      .set({ ...patch, updated_at: version })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', page.id)
      .execute();
    return version;
  },
};
