import type { DatabaseHandle } from '../../../db/database.js';
import { notFound } from '../../../errors.js';
import { compileSerializer } from '../../../http/serialization.js';
import { pageOf, type PageRequest, type Paginated } from '../../../shared/paging.js';
import { foldForSearch } from '../../../shared/search.js';
import { toIso } from '../../../shared/time.js';
import type { Actor } from '../../accounts/actor.js';
import { parsePost, presentPosts } from '../posts.embeds.js';
import { postsRepository } from '../posts.repository.js';
import { Post, type PostListQuery, type PostSortKey } from '../posts.schemas.js';
import { postHandlesRepository as handles } from './post-handles.js';
import { postRendersRepository, renderFormat, type PostHandle } from './post-renders.js';

/** A post's answer, serialized from the Post schema, as UTF-8 bytes. */
export type PostJson = Buffer;

/**
 * How posts are read: each answer is a stored render when one is current (post-renders.ts), else built now
 * from the rows, serialized with the Post schema and stored for the next read. Answers are bytes, which the
 * routes send as they are (http/serialization.ts sendSerialized, http/pagination.ts paginatedJson).
 */
export function createPostReads(database: DatabaseHandle, publicUrl: string) {
  const { db, dialect } = database;
  const format = renderFormat(publicUrl);
  const serializePost = compileSerializer<Post>(Post);

  /** The answer for each handle, in order: a fixed number of queries for any page. */
  async function rendered(workspaceId: string, found: readonly PostHandle[]): Promise<PostJson[]> {
    const missing = found.filter((handle) => handle.json === null);
    const built = new Map<string, Buffer>();
    if (missing.length > 0) {
      const rows = await postsRepository.findByIds(
        db,
        workspaceId,
        missing.map((handle) => handle.id),
      );
      for (const post of await presentPosts(db, workspaceId, rows.map(parsePost), publicUrl))
        built.set(post.id, Buffer.from(serializePost(post)));
      await postRendersRepository.store(
        db,
        dialect,
        workspaceId,
        format,
        missing.flatMap((handle) => {
          const json = built.get(handle.id);
          return json === undefined ? [] : [{ handle, json }];
        }),
      );
    }
    return found.flatMap((handle) => {
      // PostgreSQL answers text as a string; SQLite answers bytes (and text for renders stored before bytes were).
      if (handle.json !== null) return [typeof handle.json === 'string' ? Buffer.from(handle.json) : handle.json];
      return built.get(handle.id) ?? [];
    });
  }

  return {
    async list(actor: Actor, query: PostListQuery, page: PageRequest<PostSortKey>): Promise<Paginated<PostJson>> {
      const filter = {
        q: query.q ? foldForSearch(query.q) : undefined,
        status: query.status,
        categoryId: query.categoryId === '' ? null : query.categoryId,
        authorId: query.authorId,
        tagId: query.tagId,
        dateFrom: query.dateFrom ? toIso(query.dateFrom) : undefined,
        dateTo: query.dateTo ? toIso(query.dateTo) : undefined,
      };
      const { handles: found, total } = await handles.list(db, dialect, actor.workspaceId, format, filter, page);
      return pageOf(page, await rendered(actor.workspaceId, found), total);
    },

    async get(actor: Actor, idOrSlug: string): Promise<PostJson> {
      const handle = await handles.findHandle(db, actor.workspaceId, format, idOrSlug);
      const [json] = handle ? await rendered(actor.workspaceId, [handle]) : [];
      if (json === undefined) throw notFound('Post');
      return json;
    },
  };
}

export type PostReads = ReturnType<typeof createPostReads>;
