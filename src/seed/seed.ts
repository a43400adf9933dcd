import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { DatabaseHandle } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { AppError, conflict, notFound } from '../errors.js';
import type { MediaStorage } from '../modules/media/storage/storage.js';
import { commandLine, type Change } from '../writes/changes.js';
import { contentWrite } from '../writes/content-write.js';
import { insertRows } from '../db/insert-rows.js';
import { mediaCount, planMedia, type SeedMedia } from './media.js';
import { PostFactory, type SeedPost } from './posts.js';
import { planTaxonomy } from './taxonomy.js';

export const MAX_POSTS = 1_000_000;

/**
 * Posts per transaction. One transaction for a million posts would grow SQLite's WAL (and
 * PostgreSQL's open transaction) to the size of the whole database; batches keep both bounded.
 */
const POSTS_PER_TRANSACTION = 2_000;
// Rows per posts INSERT: a seeded post's bodies make its row large, and a statement stays a few megabytes.
const POSTS_PER_STATEMENT = 400;

export interface SeedOptions {
  workspaceId: string;
  posts: number;
  storage: Pick<MediaStorage, 'put' | 'delete'>;
  /** The "now" dates are spread back from; by default the start of the current UTC day. */
  anchor?: Date;
  onProgress?: (postsDone: number, postsTotal: number) => void;
  /**
   * Whether to refresh the planner's statistics when done (the default). A caller seeding many workspaces
   * passes false and calls `analyzeSeeded` once at the end: PostgreSQL's ANALYZE samples the whole tables, so
   * after each of a thousand small seeds it costs more than the seeds.
   */
  analyze?: boolean;
}

export interface SeedSummary {
  workspaceId: string;
  posts: number;
  authors: number;
  categories: number;
  tags: number;
  media: number;
  seconds: number;
}

function startOfUtcDay(): Date {
  const day = new Date();
  day.setUTCHours(0, 0, 0, 0);
  return day;
}

async function countOf(
  db: Kysely<Database>,
  table: 'posts' | 'authors' | 'categories' | 'tags',
  workspaceId: string,
): Promise<number> {
  let query = db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('workspace_id', '=', workspaceId);
  if (table === 'posts') query = query.where('deleted_at', 'is', null);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Seeded slugs would collide with what a workspace already holds, so only an empty one is seeded. */
async function assertEmpty(db: Kysely<Database>, workspaceId: string, slug: string): Promise<void> {
  const tables = { posts: 'post', authors: 'author', categories: 'category', tags: 'tag' } as const;
  const held: string[] = [];
  for (const [table, one] of Object.entries(tables) as Array<[keyof typeof tables, string]>) {
    const count = await countOf(db, table, workspaceId);
    if (count > 0) held.push(`${count} ${count === 1 ? one : table}`);
  }
  if (held.length > 0)
    throw conflict(`Workspace ${slug} already has content (${held.join(', ')}); seed fills only an empty workspace`);
}

/** A created event for each row the first transaction of a seed writes. */
function taxonomyChanges(media: readonly SeedMedia[], taxonomy: ReturnType<typeof planTaxonomy>): Change[] {
  const created = (type: 'media' | 'author' | 'category' | 'tag', row: { id: string; slug?: string }): Change => ({
    type,
    id: row.id,
    slug: row.slug ?? null,
    action: 'created',
  });
  return [
    ...media.map((item) => created('media', item.row)),
    ...taxonomy.authors.map((author) => created('author', author.row)),
    ...taxonomy.categories.map((category) => created('category', category.row)),
    ...taxonomy.tags.map((tag) => created('tag', tag.row)),
  ];
}

/** The planner's statistics of the tables a seed fills, refreshed (docs/decisions.md: why a seed runs ANALYZE). */
export async function analyzeSeeded({ db, dialect }: DatabaseHandle): Promise<void> {
  await dialect.analyze(db, ['posts', 'posts_words', 'post_tags', 'related_posts']);
}

/**
 * Fills an empty workspace with deterministic demo content: media (real PNG files), authors, a
 * category tree, tags, then `posts` posts in batches. Content depends only on the post count; ids
 * and dates depend on the workspace and the anchor day too.
 */
export async function seedWorkspace(database: DatabaseHandle, options: SeedOptions): Promise<SeedSummary> {
  const started = performance.now();
  const { db, dialect } = database;
  const { workspaceId, storage } = options;
  const workspace = await db
    .selectFrom('workspaces')
    .select(['slug', 'owner_user_id'])
    .where('id', '=', workspaceId)
    .executeTakeFirst();
  if (!workspace) throw notFound(`Workspace ${workspaceId}`);
  const anchor = (options.anchor ?? startOfUtcDay()).getTime();
  // Checked again inside the transaction; this early look only spares rendering images for nothing.
  await assertEmpty(db, workspaceId, workspace.slug);

  const media = planMedia(mediaCount(options.posts), workspaceId, workspace.owner_user_id, anchor);
  const taxonomy = planTaxonomy(workspaceId, media, anchor);

  const written: SeedMedia[] = [];
  try {
    await contentWrite(database, commandLine(workspaceId), async ({ trx, changed }) => {
      await assertEmpty(trx, workspaceId, workspace.slug);
      for (const item of media) {
        await storage.put(item.row.storage_path, Readable.from([item.file]), { contentType: item.row.mime_type });
        written.push(item);
      }
      await insertRows(
        trx,
        dialect.name,
        'media',
        media.map((m) => m.row),
      );
      await insertRows(
        trx,
        dialect.name,
        'authors',
        taxonomy.authors.map((a) => a.row),
      );
      // Level by level, so every parent row exists before its children reference it.
      for (const depth of [0, 1, 2])
        await insertRows(
          trx,
          dialect.name,
          'categories',
          taxonomy.categories.filter((c) => c.depth === depth).map((c) => c.row),
        );
      await insertRows(
        trx,
        dialect.name,
        'tags',
        taxonomy.tags.map((t) => t.row),
      );
      for (const change of taxonomyChanges(media, taxonomy)) changed(change);
    });
  } catch (error) {
    await Promise.all(written.map((item) => storage.delete(item.row.storage_path).catch(() => undefined)));
    // Two seeds racing on one workspace: the loser trips over the winner's slugs.
    if (error instanceof AppError && error.code === 'CONFLICT')
      throw conflict(`Workspace ${workspace.slug} is being seeded by another process`);
    throw error;
  }

  const factory = new PostFactory(
    workspaceId,
    anchor,
    taxonomy,
    media.map((m) => ({ mediaId: m.row.id, alt: m.row.alt ?? '', domain: m.domain })),
  );
  for (let start = 0; start < options.posts; start += POSTS_PER_TRANSACTION) {
    const end = Math.min(options.posts, start + POSTS_PER_TRANSACTION);
    const batch: SeedPost[] = [];
    for (let index = start; index < end; index += 1) batch.push(factory.build(index));
    await contentWrite(database, commandLine(workspaceId), async ({ trx, changed }) => {
      await insertRows(
        trx,
        dialect.name,
        'posts',
        batch.map((p) => p.row),
        POSTS_PER_STATEMENT,
      );
      await insertRows(
        trx,
        dialect.name,
        'post_tags',
        batch.flatMap((p) =>
          p.tagIds.map((tagId) => ({
            workspace_id: workspaceId,
            post_id: p.row.id,
            tag_id: tagId,
            created_at: p.row.updated_at!,
          })),
        ),
      );
      await insertRows(
        trx,
        dialect.name,
        'related_posts',
        batch.flatMap((p) =>
          p.relatedIds.map((relatedId, position) => ({
            workspace_id: workspaceId,
            post_id: p.row.id,
            related_post_id: relatedId,
            position,
          })),
        ),
      );
      for (const post of batch)
        changed({ type: 'post', id: post.row.id, slug: post.row.slug, action: 'created', status: post.row.status });
    });
    options.onProgress?.(end, options.posts);
  }
  if (options.analyze !== false) await analyzeSeeded(database);

  return {
    workspaceId,
    posts: options.posts,
    authors: taxonomy.authors.length,
    categories: taxonomy.categories.length,
    tags: taxonomy.tags.length,
    media: media.length,
    seconds: Math.round(performance.now() - started) / 1000,
  };
}
