import { sql, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { DialectHelpers, WordsFound } from '../../../db/dialects/dialect.js';
import { livePostCount } from '../../../db/counts.js';
import { preparedQuery } from '../../../db/prepared-query.js';
import type { Database, PostRow } from '../../../db/schema.js';
import { impliedTotal, type PageRequest } from '../../../shared/paging.js';
import { isEmptyQuery, type WordQuery } from '../../../shared/search-words.js';
import { idOrSlugKey } from '../../../shared/slug.js';
import { livePosts } from '../posts.repository.js';
import type { PostSortKey } from '../posts.schemas.js';
import type { PostHandle, StoredForms } from './post-renders.js';

type Executor = Kysely<Database>;

export interface PostFilter {
  q?: WordQuery | undefined;
  status?: PostRow['status'] | undefined;
  /** null: uncategorised posts only. */
  categoryId?: string | null | undefined;
  authorId?: string | undefined;
  tagId?: string | undefined;
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
}

/**
 * Up to this many index matches, a search lists them all in one statement and counts them there: each costs
 * a row lookup and a place in the sort (the bound's measured cost: docs/performance.md, "Figures behind the
 * code").
 */
const FEW_MATCHES = 500;

/**
 * A page of a search walks its order's index checking each row's stored words when that reads fewer than one
 * row per this many matches; otherwise the index's list of every match is looked up instead. A row checked costs
 * about this many matches listed (docs/performance.md, "Figures behind the code").
 */
const MATCHES_PER_ROW_CHECKED = 70;

/** Whether walking the order's index past rows that do not match costs less than listing every match. */
function walkCosts({ total, live }: { total: number; live: number }, page: PageRequest<PostSortKey>): boolean {
  const rowsWalked = page.page * page.pageSize * (live / Math.max(total, 1));
  return rowsWalked * MATCHES_PER_ROW_CHECKED < total;
}

const SORT_COLUMNS: Record<PostSortKey, keyof PostRow> = {
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  publishedAt: 'published_at',
  title: 'title',
  status: 'status',
  seoScore: 'seo_score',
  readabilityScore: 'readability_score',
};

/**
 * The sum of the render stamps of the posts `posts` lists as related, deleted ones included. Each write
 * to a post moves its own stamp up, and the list itself changes only by a write to `posts`, which moves
 * its stamp instead: so the post's stamp and this sum never come back to values they had with other rows
 * behind them, and a render stored under both is never served after a write that could change it.
 */
function relatedStamp(workspaceId: string) {
  return sql<number>`(select coalesce(sum(related.render_stamp), 0) from related_posts
    inner join posts as related on related.id = related_posts.related_post_id
    where related_posts.workspace_id = ${workspaceId} and related_posts.post_id = posts.id)`;
}

/** 1 when the read wants the renders' deflated forms too: a parameter of the prepared queries, which take scalars. */
type Deflated = 0 | 1;
const deflatedFlag = (forms: StoredForms): Deflated => (forms.deflated ? 1 : 0);

/** The largest stored render that comes with its post's handle; larger ones are loaded apart, in batches. */
const INLINE_RENDER_BYTES = 1024 * 1024;
const inlineRender = sql<boolean>`octet_length(post_renders.json) <= ${INLINE_RENDER_BYTES}`;

/**
 * Posts as reads find them: id, the labels of stored renders (post-renders.ts) and the
 * stored render when it is current for `format`; the rows themselves are loaded only for the posts
 * without one.
 */
function postHandles(db: Executor, workspaceId: string, format: string, deflated: Deflated) {
  return db
    .selectFrom('posts')
    .innerJoin('workspaces', 'workspaces.id', 'posts.workspace_id')
    .leftJoin('post_renders', (join) =>
      join
        .onRef('post_renders.post_id', '=', 'posts.id')
        .onRef('post_renders.render_stamp', '=', 'posts.render_stamp')
        .onRef('post_renders.embeds_version', '=', 'workspaces.embeds_version')
        .on('post_renders.format', '=', format)
        // Summed here and again in the select, which the join cannot name: the second sum costs less than
        // comparing the two in JS would (docs/performance.md, "Figures behind the code").
        .on(sql<boolean>`post_renders.related_stamp = ${relatedStamp(workspaceId)}`),
    )
    .select([
      'posts.id',
      'posts.status',
      'posts.render_stamp',
      relatedStamp(workspaceId).as('related_stamp'),
      'workspaces.embeds_version',
      // A render too large to come with a page is loaded in batches (post-reads.ts); its size decides them.
      sql<Buffer | string | null>`case when ${inlineRender} then post_renders.json end`.as('json'),
      sql<number | null>`octet_length(post_renders.json)`.as('render_bytes'),
      // Selected only for an answer the client asked to have in gzip: otherwise the statement answers null.
      sql<Buffer | null>`case when ${deflated} = 1 and ${inlineRender} then post_renders.json_deflated end`.as(
        'json_deflated',
      ),
      'posts.word_count',
      livePostCount(workspaceId).as('live_post_count'),
    ])
    .where('posts.workspace_id', '=', workspaceId);
}

/** Every uncached read of one post runs one of these: Kysely builds and compiles each once per dialect. */
const handleById = preparedQuery((db: Executor, workspaceId: string, format: string, deflated: Deflated, id: string) =>
  postHandles(db, workspaceId, format, deflated).where('posts.deleted_at', 'is', null).where('posts.id', '=', id),
);
const handleBySlug = preparedQuery(
  (db: Executor, workspaceId: string, format: string, deflated: Deflated, slug: string) =>
    postHandles(db, workspaceId, format, deflated).where('posts.deleted_at', 'is', null).where('posts.slug', '=', slug),
);

type LivePosts = ReturnType<typeof livePosts>;

const sortColumn = (page: PageRequest<PostSortKey>) => SORT_COLUMNS[page.orderBy ?? 'createdAt'];

/**
 * The live posts of a workspace that `filter` keeps; `few` stands for `q` when the search index named its rows,
 * `words` when each row's own words are checked instead.
 * `order`, when given, is the column a page is read in: a date range on another column is then checked on the
 * rows that order's index walks (migration 0016 put created_at in each), rather than sorting every row in it.
 * Without it the posts are counted.
 */
function filteredPosts(
  db: Executor,
  dialect: DialectHelpers,
  workspaceId: string,
  filter: PostFilter,
  {
    few,
    words,
    order,
  }: { few?: RawBuilder<boolean> | undefined; words?: RawBuilder<boolean> | undefined; order?: keyof PostRow } = {},
): LivePosts {
  // The few rows a search index named are looked up by rowid and checked there: offered any index of the
  // workspace, SQLite would walk one whole (each now holds every column the check reads) to meet them.
  let query = few
    ? db
        .selectFrom('posts')
        .where(sql<boolean>`${dialect.unindexed('posts.workspace_id')} = ${workspaceId}`)
        .where('posts.deleted_at', 'is', null)
    : livePosts(db, workspaceId);
  if (filter.q)
    query = query.where(few ?? words ?? dialect.wordsMatch('posts', { workspaceId, status: filter.status }, filter.q));
  if (filter.status) query = query.where('posts.status', '=', filter.status);
  if (filter.categoryId === null) query = query.where('posts.category_id', 'is', null);
  else if (filter.categoryId) query = query.where('posts.category_id', '=', filter.categoryId);
  if (filter.authorId) query = query.where('posts.author_id', '=', filter.authorId);
  if (filter.tagId) {
    const tagId = filter.tagId;
    // A page walks the order's index and asks post_tags of each post; a count starts from the tag's posts
    // and looks each up in posts_live_id_idx (migration 0016), rather than asking of every post.
    query =
      order === undefined
        ? query.where('posts.id', 'in', (eb) =>
            eb.selectFrom('post_tags').select('post_tags.post_id').where('post_tags.tag_id', '=', tagId),
          )
        : query.where((eb) =>
            eb.exists(
              eb
                .selectFrom('post_tags')
                .select('post_tags.post_id')
                .whereRef('post_tags.post_id', '=', 'posts.id')
                .where('post_tags.tag_id', '=', tagId),
            ),
          );
  }
  const created =
    order === undefined || order === 'created_at' ? sql.ref('posts.created_at') : dialect.unindexed('posts.created_at');
  if (filter.dateFrom) query = query.where(sql<boolean>`${created} >= ${filter.dateFrom}`);
  if (filter.dateTo) query = query.where(sql<boolean>`${created} <= ${filter.dateTo}`);
  return query;
}

/**
 * Posts never published sort after the rest in both directions, on both dialects alike: the term leads the
 * order, as it leads the two published_at indexes of migration 0016.
 */
function nullsLastOrder<Q extends SelectQueryBuilder<Database, 'posts', { id: string }>>(
  query: Q,
  column: keyof PostRow,
): Q {
  return column === 'published_at' ? (query.orderBy(sql`(posts.published_at is null)`) as Q) : query;
}

/**
 * The ids of one page, in its order, read from the sort's index alone (migration 0016): a deep offset
 * would otherwise read every skipped row whole, bodies included.
 */
function pageIdsQuery(query: LivePosts, page: PageRequest<PostSortKey>) {
  const column = sortColumn(page);
  return nullsLastOrder(query.select('posts.id'), column)
    .orderBy(`posts.${column}`, page.order)
    .orderBy('posts.id', page.order)
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
}

/** The statement that finds a list's page of ids when `q` is not few: what the query-plan tests explain. */
export function postListIdsQuery(
  db: Executor,
  dialect: DialectHelpers,
  workspaceId: string,
  filter: PostFilter,
  page: PageRequest<PostSortKey>,
  words?: RawBuilder<boolean>,
) {
  return pageIdsQuery(filteredPosts(db, dialect, workspaceId, filter, { order: sortColumn(page), words }), page);
}

/** The statement that counts a filter's posts when a page does not tell the total: explained by the same tests. */
export function postListCountQuery(db: Executor, dialect: DialectHelpers, workspaceId: string, filter: PostFilter) {
  return countOf(filteredPosts(db, dialect, workspaceId, filter));
}

const countOf = (query: LivePosts) => query.select((eb) => eb.fn.countAll<number>().as('total'));

async function listPosts(
  db: Executor,
  dialect: DialectHelpers,
  workspaceId: string,
  forms: StoredForms,
  filter: PostFilter,
  page: PageRequest<PostSortKey>,
) {
  if (filter.q && isEmptyQuery(filter.q)) return { handles: [], total: 0 };
  // Words the index finds in few rows: the planner starts from exactly those (DialectHelpers.wordsFound).
  const matches = filter.q
    ? await dialect.wordsFound(db, 'posts', { workspaceId, status: filter.status }, filter.q, FEW_MATCHES)
    : undefined;
  const few = matches?.few;
  const query = filteredPosts(db, dialect, workspaceId, filter, { few });
  const column = sortColumn(page);
  const offset = (page.page - 1) * page.pageSize;
  let ids: string[];
  let total: number | undefined;
  if (few) {
    // Every match at once, which gives the total too. Unindexed, the order keeps SQLite off the sort
    // index, whose walk over the whole workspace would meet the handful of rows one probe at a time.
    const all = (
      await nullsLastOrder(query.select('posts.id'), column)
        .orderBy(dialect.unindexed(`posts.${column}`), page.order)
        .orderBy(dialect.unindexed('posts.id'), page.order)
        .execute()
    ).map((row) => row.id);
    ids = all.slice(offset, offset + page.pageSize);
    total = all.length;
  } else {
    const words = matches?.counted && walkCosts(matches.counted, page) ? matches.inRow : undefined;
    ids = (await postListIdsQuery(db, dialect, workspaceId, filter, page, words).execute()).map((row) => row.id);
  }
  // In the page's order, put back here: sorting in SQL would carry every stored render through the sorter.
  const found =
    ids.length === 0
      ? []
      : await postHandles(db, workspaceId, forms.format, deflatedFlag(forms)).where('posts.id', 'in', ids).execute();
  const byId = new Map(found.map((handle) => [handle.id, handle]));
  const handles = ids.flatMap((id) => byId.get(id) ?? []);
  total ??= impliedTotal(page, handles.length);
  return { handles, total: total ?? (await keptOrCounted(db, workspaceId, filter, query, matches, handles[0])) };
}

const only = (filter: PostFilter, ...names: Array<keyof PostFilter>) =>
  Object.entries(filter).every(([name, value]) => value === undefined || names.includes(name as keyof PostFilter));

/**
 * A list's total when its page does not tell it: a count kept or already made where the filter has one (the
 * workspace's live posts; a status alone or a tag alone, migrations 0019 and 0020; the word index's count of
 * `q`, in the status asked for), else the rows counted.
 */
async function keptOrCounted(
  db: Executor,
  workspaceId: string,
  filter: PostFilter,
  query: LivePosts,
  matches: WordsFound | undefined,
  first: { live_post_count: number } | undefined,
): Promise<number> {
  if (matches?.counted && only(filter, 'q', 'status')) return matches.counted.total;
  if (first && only(filter)) return first.live_post_count;
  if (filter.status && only(filter, 'status')) return statusCount(db, workspaceId, filter.status);
  if (filter.tagId && only(filter, 'tagId')) return tagCount(db, workspaceId, filter.tagId);
  return Number((await countOf(query).executeTakeFirstOrThrow()).total);
}

const tagCount = async (db: Executor, workspaceId: string, tagId: string) =>
  (
    await db
      .selectFrom('post_tag_counts')
      .select('live_count')
      .where('workspace_id', '=', workspaceId)
      .where('tag_id', '=', tagId)
      .executeTakeFirst()
  )?.live_count ?? 0;

const statusCount = async (db: Executor, workspaceId: string, status: PostRow['status']) =>
  (
    await db
      .selectFrom('post_status_counts')
      .select('live_count')
      .where('workspace_id', '=', workspaceId)
      .where('status', '=', status)
      .executeTakeFirst()
  )?.live_count ?? 0;

/** The read queries of posts: which posts a list or a single read finds, with their stored renders. */
export const postHandlesRepository = {
  list(
    db: Executor,
    dialect: DialectHelpers,
    workspaceId: string,
    forms: StoredForms,
    filter: PostFilter,
    page: PageRequest<PostSortKey>,
  ) {
    return filter.q
      ? dialect.searching(db, (searching) => listPosts(searching, dialect, workspaceId, forms, filter, page))
      : listPosts(db, dialect, workspaceId, forms, filter, page);
  },

  /** The live post a read names (a UUID by id, anything else by slug), as a handle. */
  async findHandle(
    db: Executor,
    workspaceId: string,
    forms: StoredForms,
    idOrSlug: string,
  ): Promise<PostHandle | undefined> {
    const key = idOrSlugKey(idOrSlug);
    const read = key.column === 'id' ? handleById : handleBySlug;
    const { rows } = await read(db, workspaceId, forms.format, deflatedFlag(forms), key.value);
    return rows[0];
  },
};
