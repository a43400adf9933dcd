import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { BlockWrite, StoredBlock } from '@quire/blocks';
import { assignHeadingIds, deriveBody } from '../../blocks/derive.js';
import { checkSeoMedia } from '../../blocks/image-references.js';
import type { DatabaseHandle } from '../../db/database.js';
import { existingIds } from '../../db/references.js';
import type { Database, StoredPost } from '../../db/schema.js';
import { invalid } from '../../errors.js';
import { searchWords } from '../../shared/search-words.js';
import { nowIso } from '../../shared/time.js';
import { statusAction } from '../../writes/changes.js';
import { contentWrite } from '../../writes/content-write.js';
import type { VersionCondition } from '../../writes/versions.js';
import { checkDraftWrite, type Actor } from '../../security/actor.js';
import { contentResource, firstPublishedAt } from '../content/content-resource.js';
import { parsePost, presentPosts } from './posts.embeds.js';
import type { ParsedPost } from './posts.embeds.types.js';
import { checkPostReferences } from './posts.references.js';
import { postColumns } from './posts.columns.js';
import { postsRepository as repo, type PostPatch } from './posts.repository.js';
import { scoreColumns } from './posts.scores.js';
import { checkPostNotScheduled, checkStatusMove, checkStatusOnCreate } from './posts.rules.js';
import { Post, type PostCreateBody, type PostUpdateBody } from './posts.schemas.js';
import { compileSerializer } from '../../http/serialization.js';

type Executor = Kysely<Database>;

/** A post's tags, written with it (the importers'). */
export interface TagOptions {
  tagIds?: readonly string[];
}

/** The columns the column map writes on create: all of a post's but those the service computes. */
type PostColumns = Omit<
  StoredPost,
  | 'id'
  | 'workspace_id'
  | 'slug'
  | 'body_json'
  | 'body_text'
  | 'toc_items'
  | 'word_count'
  | 'reading_time_min'
  | 'scheduled_at'
  | 'view_count'
  | 'structured_blocks'
  | 'seo_score'
  | 'readability_score'
  | 'deleted_at'
  | 'created_at'
  | 'updated_at'
>;

/** The columns a body write recomputes: derived fields of contract §6 and the search column. */
function bodyColumns(blocks: readonly BlockWrite[]) {
  const derived = deriveBody(blocks);
  return {
    body_json: JSON.stringify(derived.blocks),
    body_text: derived.bodyText,
    word_count: derived.wordCount,
    reading_time_min: derived.readingTimeMin,
    toc_items: JSON.stringify(derived.tocItems),
  };
}

/**
 * The columns of `next` whose values differ from the row's. SQLite rewrites the index entries of every column
 * an UPDATE sets, changed or not: a title PATCH set both scores, and wrote both of their indexes, every time.
 */
function changedColumns(current: StoredPost, next: PostPatch): PostPatch {
  return Object.fromEntries(
    Object.entries(next).filter(([column, value]) => current[column as keyof StoredPost] !== value),
  );
}

export function createPostsService(database: DatabaseHandle, publicUrl: string) {
  const { dialect } = database;
  async function presentOne(executor: Executor, workspaceId: string, post: ParsedPost): Promise<Post> {
    const [presented] = await presentPosts(executor, workspaceId, [post], publicUrl);
    return presented!;
  }
  const posts = contentResource(database, {
    type: 'post',
    columns: postColumns,
    label: 'Post',
    repo,
    present: (executor, workspaceId, row) => presentOne(executor, workspaceId, parsePost(row)),
    // As a GET serializes the post (read/post-reads.ts), for the ETag an If-Match may name.
    serialize: compileSerializer<Post>(Post),
  });

  /**
   * The live post a write is about, locked on PostgreSQL until its transaction ends: what the write derives
   * from the row (search text, scores, the answer) must not be undone by a concurrent write of the same
   * post, and two deletes of it must not both count it. SQLite's writes run one at a time.
   */
  function requirePost(trx: Executor, workspaceId: string, idOrSlug: string): Promise<StoredPost> {
    return posts.require(trx, workspaceId, idOrSlug, 'noKeyUpdate');
  }

  return {
    /** `options.tagIds`: the post's tags, attached in the same write (the importers'; the API attaches apart). */
    async create(actor: Actor, body: PostCreateBody, options: TagOptions = {}): Promise<Post> {
      checkDraftWrite(actor, 'posts', null, body.status);
      checkStatusOnCreate(body.status ?? 'draft');
      checkPostNotScheduled(body, null, Date.now());
      return contentWrite(database, actor, async ({ trx, workspaceId, changed }) => {
        await checkPostReferences(trx, dialect, workspaceId, body, { postId: null, body: [], structuredBlocks: [] });
        await checkSeoMedia(trx, dialect, workspaceId, body.seo);
        const now = nowIso();
        const id = crypto.randomUUID();
        const columns = postColumns.write(body, { create: true }) as PostColumns;
        const derived = bodyColumns(body.bodyJson ?? []);
        const slug = await posts.claimSlug(trx, workspaceId, body.slug, columns.title);
        const unscored = {
          ...columns,
          id,
          workspace_id: workspaceId,
          slug,
          ...derived,
          published_at: firstPublishedAt(columns, now),
          scheduled_at: null,
          view_count: 0,
          structured_blocks: JSON.stringify(assignHeadingIds(body.structuredBlocks ?? [], '/structuredBlocks')),
          deleted_at: null,
          created_at: now,
          updated_at: now,
        };
        // The row as this write leaves it: inserted, then answered, as a PATCH answers from the row it wrote.
        const written: StoredPost = { ...unscored, ...scoreColumns(unscored) };
        await repo.insert(trx, workspaceId, {
          ...written,
          search_head: searchWords(written.title, written.excerpt),
          search_text: searchWords(derived.body_text),
        });
        if (body.relatedPostIds) await repo.replaceRelated(trx, workspaceId, id, body.relatedPostIds);
        if (options.tagIds?.length) {
          await checkTagIds(trx, workspaceId, options.tagIds);
          await repo.attachTags(trx, workspaceId, id, options.tagIds, now);
        }
        changed({ type: 'post', id, slug, action: 'created', status: written.status });
        return presentOne(trx, workspaceId, parsePost(written));
      });
    },

    /**
     * `ifVersion` (from `If-Match`) refuses the write with a 409 when the post moved past that version;
     * `options.tagIds`: the post's tags become these, in the same write.
     */
    async update(
      actor: Actor,
      idOrSlug: string,
      body: PostUpdateBody,
      ifVersion?: VersionCondition,
      options: TagOptions = {},
    ): Promise<Post> {
      return contentWrite(database, actor, async ({ trx, workspaceId, changed }) => {
        const current = await requirePost(trx, workspaceId, idOrSlug);
        checkDraftWrite(actor, 'posts', current.status, body.status);
        const { body: storedBody, structuredBlocks } = parsePost(current);
        if (body.status !== undefined) checkStatusMove(current.status, body.status);
        checkPostNotScheduled(body, current, Date.now());
        await checkPostReferences(trx, dialect, workspaceId, body, {
          postId: current.id,
          body: storedBody,
          structuredBlocks,
        });
        await checkSeoMedia(trx, dialect, workspaceId, body.seo, current.seo);
        await posts.checkIfMatch(trx, workspaceId, current, ifVersion);

        const now = nowIso();
        const patch = (await posts.patch(trx, workspaceId, body, current)) as PostPatch;
        if (body.bodyJson !== undefined) Object.assign(patch, bodyColumns(body.bodyJson));
        if (body.structuredBlocks !== undefined)
          patch.structured_blocks = JSON.stringify(assignHeadingIds(body.structuredBlocks, '/structuredBlocks'));
        // Moving to published stamps publishedAt when it is empty (and the request did not set it).
        const publishing = body.status === 'published' && current.status !== 'published';
        if (body.publishedAt === undefined && publishing && current.published_at === null) patch.published_at = now;
        // Each search column only when its text changes: its index re-reads all of it.
        const title = patch.title ?? current.title;
        const excerpt = patch.excerpt ?? current.excerpt;
        if (title !== current.title || excerpt !== current.excerpt) patch.search_head = searchWords(title, excerpt);
        if (patch.body_text !== undefined && patch.body_text !== current.body_text)
          patch.search_text = searchWords(patch.body_text);

        // The row as this write leaves it (requirePost holds it against concurrent writes): the scores and
        // the answer are built from it, and its bodies are parsed only when the write replaced them.
        const written: StoredPost = { ...current, ...patch };
        const post: ParsedPost = {
          row: written,
          body: patch.body_json === undefined ? storedBody : (JSON.parse(patch.body_json) as StoredBlock[]),
          structuredBlocks:
            patch.structured_blocks === undefined
              ? structuredBlocks
              : (JSON.parse(patch.structured_blocks) as StoredBlock[]),
        };
        // Every write rescores from the row as it will be: the scores read most of its fields.
        const scores = scoreColumns(written, current, post.body);
        const version = await repo.update(
          trx,
          workspaceId,
          current,
          changedColumns(current, { ...patch, ...scores }),
          now,
        );
        if (body.relatedPostIds !== undefined)
          await repo.replaceRelated(trx, workspaceId, current.id, body.relatedPostIds);
        if (options.tagIds !== undefined) {
          await checkTagIds(trx, workspaceId, options.tagIds);
          await repo.replaceTags(trx, workspaceId, current.id, options.tagIds, now);
        }
        changed({
          type: 'post',
          id: current.id,
          slug: written.slug,
          action: statusAction(current.status, written.status),
        });
        return presentOne(trx, workspaceId, { ...post, row: { ...written, ...scores, updated_at: version } });
      });
    },

    /** Soft delete: the slug is freed, and the answer is the post as it was, with deletedAt set. */
    remove: (actor: Actor, idOrSlug: string): Promise<Post> => posts.remove(actor, idOrSlug),

    async attachTags(actor: Actor, idOrSlug: string, tagIds: readonly string[]): Promise<Post> {
      return changeTags(actor, idOrSlug, tagIds, 'attach');
    },

    async detachTags(actor: Actor, idOrSlug: string, tagIds: readonly string[]): Promise<Post> {
      return changeTags(actor, idOrSlug, tagIds, 'detach');
    },
  };

  /** Every tag id must belong to the bound workspace (else 400, naming it). */
  async function checkTagIds(trx: Executor, workspaceId: string, tagIds: readonly string[]): Promise<void> {
    const known = await existingIds(trx, dialect, 'tags', workspaceId, tagIds);
    const issues = tagIds.flatMap((id, index) =>
      known.has(id)
        ? []
        : [{ in: 'body' as const, path: `/tagIds/${index}`, message: 'no tag with this id in this workspace' }],
    );
    if (issues.length > 0) throw invalid(issues);
  }

  /** Attach and detach are idempotent; every tag id must belong to the bound workspace (else 400). */
  async function changeTags(
    actor: Actor,
    idOrSlug: string,
    tagIds: readonly string[],
    change: 'attach' | 'detach',
  ): Promise<Post> {
    return contentWrite(database, actor, async ({ trx, workspaceId, changed }) => {
      const current = await requirePost(trx, workspaceId, idOrSlug);
      checkDraftWrite(actor, 'posts', current.status, undefined);
      await checkTagIds(trx, workspaceId, tagIds);
      const now = nowIso();
      if (change === 'attach') await repo.attachTags(trx, workspaceId, current.id, tagIds, now);
      else await repo.detachTags(trx, workspaceId, current.id, tagIds);
      const version = await repo.update(trx, workspaceId, current, {}, now);
      changed({
        type: 'post',
        id: current.id,
        slug: current.slug,
        action: change === 'attach' ? 'attached' : 'detached',
      });
      return presentOne(trx, workspaceId, parsePost({ ...current, updated_at: version }));
    });
  }
}

export type PostsService = ReturnType<typeof createPostsService>;
