import type { DatabaseHandle } from '../../../db/database.js';
import { notFound } from '../../../errors.js';
import { compileSerializer } from '../../../http/serialization.js';
import { pageOf, type ListAnswer, type PageRequest } from '../../../shared/paging.js';
import { LARGE_READ_BYTES, LARGE_READS } from '../../../shared/gate.js';
import { wordQuery } from '../../../shared/search-words.js';
import { toIso } from '../../../shared/time.js';
import type { Actor } from '../../../security/actor.js';
import { parsePost, presentPosts } from '../posts.embeds.js';
import { postsRepository } from '../posts.repository.js';
import { renderBlocks } from '@quire/blocks';
import { Post, type PostListQuery, type PostSortKey } from '../posts.schemas.js';
import { postHandlesRepository as handles } from './post-handles.js';
import {
  postRendersRepository,
  renderFormat,
  withDeflated,
  type PostHandle,
  type StoredForms,
} from './post-renders.js';

/** A post's answer, serialized from the Post schema, as UTF-8 bytes. */
export type PostJson = Buffer;

/**
 * What a read's answers are asked to carry: `html`, the body as HTML (`bodyHtml`); `deflated`, the deflated forms
 * of stored renders kept with their bytes (shared/gzip-pieces.ts), when the client asked for gzip. An answer
 * with `bodyHtml` has none: its bytes are the render's and more.
 */
interface Forms extends Pick<StoredForms, 'deflated'> {
  html: boolean;
}

const BODY_HTML = Buffer.from(',"bodyHtml":');

/** A serialized post (an object, so its last byte is `}`) with `bodyHtml` added as its last field. */
function withBodyHtml(json: Buffer, html: string): Buffer {
  return Buffer.concat([
    json.subarray(0, json.length - 1),
    BODY_HTML,
    Buffer.from(JSON.stringify(html)),
    Buffer.from('}'),
  ]);
}

/**
 * The bytes of renders, stored or built, one batch of a list holds in memory at a time. A page of ordinary
 * posts is one batch; a page of posts near the limits (a body of 1,000 paragraphs of 10,000 characters reads
 * back as tens of megabytes) is loaded and built a few posts at a time, so that one request's memory stays
 * bounded whatever the page holds (docs/decisions.md, "Memory of one request").
 */
export const BATCH_BYTES = 8 * 1024 * 1024;

/** What a post's render weighs, before it is loaded or built: its stored size, or an estimate from its words. */
function weight(handle: PostHandle): number {
  // A word reads back about twice (bodyJson and bodyText) with its markup; the rest is a few kilobytes.
  return handle.render_bytes ?? 16 * handle.word_count + 8 * 1024;
}

/**
 * How posts are read: each answer is a stored render when one is current (post-renders.ts), else built now
 * from the rows, serialized with the Post schema and stored for the next read. Answers are bytes, which the
 * routes send as they are (http/serialization.ts sendSerialized, http/list-answer.ts).
 */
export function createPostReads(database: DatabaseHandle, publicUrl: string) {
  const { db, dialect } = database;
  const format = renderFormat(publicUrl);
  const serializePost = compileSerializer<Post>(Post);
  /** What a read asks of the stored renders: no deflated forms for answers with `bodyHtml` (Forms). */
  const storedForms = ({ html, deflated }: Forms): StoredForms => ({ format, deflated: deflated && !html });

  /** Builds, serializes and stores the renders of posts that have none current: one batch's queries. */
  async function build(workspaceId: string, missing: readonly PostHandle[]): Promise<Map<string, Buffer>> {
    const built = new Map<string, Buffer>();
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
    return built;
  }

  /**
   * The answer for each handle, in order. Renders small enough come with the handles; the others, stored or
   * to be built, are loaded in batches of about BATCH_BYTES, each batch a fixed number of queries.
   */
  async function* rendered(
    workspaceId: string,
    found: readonly PostHandle[],
    deflated: boolean,
  ): AsyncGenerator<{ handle: PostHandle; json: PostJson }> {
    let loaded = new Map<string, Buffer>();
    for (let index = 0; index < found.length; index += 1) {
      const handle = found[index]!;
      if (handle.json !== null) {
        // PostgreSQL answers text as a string; SQLite answers bytes.
        const json = typeof handle.json === 'string' ? Buffer.from(handle.json) : handle.json;
        yield { handle, json: withDeflated(json, handle.json_deflated) };
        continue;
      }
      if (!loaded.has(handle.id)) {
        // This handle and the next ones that need loading, up to the batch's bytes (one at least).
        const batch: PostHandle[] = [];
        let bytes = 0;
        for (const next of found.slice(index)) {
          if (next.json !== null) continue;
          if (batch.length > 0 && bytes + weight(next) > BATCH_BYTES) break;
          batch.push(next);
          bytes += weight(next);
        }
        loaded =
          bytes > LARGE_READ_BYTES
            ? await LARGE_READS(() => load(workspaceId, batch, deflated))
            : await load(workspaceId, batch, deflated);
      }
      const json = loaded.get(handle.id);
      // A post deleted between the handles and its build has no row left: the page skips it.
      if (json !== undefined) yield { handle, json };
    }
  }

  async function load(
    workspaceId: string,
    batch: readonly PostHandle[],
    deflated: boolean,
  ): Promise<Map<string, Buffer>> {
    const stored = batch.filter((handle) => handle.render_bytes !== null);
    const missing = batch.filter((handle) => handle.render_bytes === null);
    const loaded =
      stored.length === 0
        ? new Map<string, Buffer>()
        : await postRendersRepository.findJson(db, workspaceId, format, stored, { deflated });
    // A stored render replaced meanwhile (its labels moved) is built again.
    const gone = stored.filter((handle) => !loaded.has(handle.id));
    if (missing.length + gone.length > 0)
      for (const [id, json] of await build(workspaceId, [...missing, ...gone])) loaded.set(id, json);
    return loaded;
  }

  /**
   * Each answer as `rendered` gives it, or with `bodyHtml` added when `html`: the body's HTML kept with the stored
   * render (its labels) when there is one, else rendered from the answer's own blocks and kept for the next read,
   * all of a page's in one statement once it has been sent. The field goes last, so the bytes before it are the
   * answer without it.
   */
  async function* answers(
    workspaceId: string,
    found: readonly PostHandle[],
    { html, deflated }: Forms,
  ): AsyncGenerator<PostJson> {
    if (!html) {
      for await (const { json } of rendered(workspaceId, found, deflated)) yield json;
      return;
    }
    const kept = await postRendersRepository.findHtml(db, workspaceId, format, found);
    const made: Array<{ handle: PostHandle; json: Buffer; html: string }> = [];
    for await (const { handle, json } of rendered(workspaceId, found, false)) {
      let body = kept.get(handle.id);
      if (body === undefined) {
        const post = JSON.parse(json.toString('utf8')) as Pick<Post, 'bodyJson'>;
        const fresh = renderBlocks(post.bodyJson);
        made.push({ handle, json, html: fresh });
        body = fresh;
      }
      yield withBodyHtml(json, body);
    }
    await postRendersRepository.store(db, dialect, workspaceId, format, made);
  }

  return {
    async list(
      actor: Actor,
      query: PostListQuery,
      page: PageRequest<PostSortKey>,
      { html = false, deflated = false }: Partial<Forms> = {},
    ): Promise<ListAnswer> {
      const filter = {
        q: query.q ? wordQuery(query.q) : undefined,
        status: query.status,
        categoryId: query.categoryId === '' ? null : query.categoryId,
        authorId: query.authorId,
        tagId: query.tagId,
        dateFrom: query.dateFrom ? toIso(query.dateFrom) : undefined,
        dateTo: query.dateTo ? toIso(query.dateTo) : undefined,
      };
      const { handles: found, total } = await handles.list(
        db,
        dialect,
        actor.workspaceId,
        storedForms({ html, deflated }),
        filter,
        page,
      );
      return {
        page: pageOf(page, [], total),
        items: answers(actor.workspaceId, found, { html, deflated }),
        bytes: found.reduce((sum, handle) => sum + (handle.json === null ? weight(handle) : handle.json.length), 0),
      };
    },

    /**
     * `published`: only a published post is found (the content API's reads); any other is a 404. `html`: the
     * answer carries `bodyHtml`. `deflated`: its deflated form comes with it where one is stored (Forms).
     */
    async get(
      actor: Actor,
      idOrSlug: string,
      { published = false, html = false, deflated = false }: Partial<Forms> & { published?: boolean } = {},
    ): Promise<PostJson> {
      const handle = await handles.findHandle(db, actor.workspaceId, storedForms({ html, deflated }), idOrSlug);
      let answer: PostJson | undefined;
      // Read to its end, not left at the first answer: what the read made is stored after it.
      if (handle && (!published || handle.status === 'published'))
        for await (const json of answers(actor.workspaceId, [handle], { html, deflated })) answer = json;
      if (answer === undefined) throw notFound('Post');
      return answer;
    },
  };
}

export type PostReads = ReturnType<typeof createPostReads>;
