import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../../../db/dialects/dialect.js';
import type { Database } from '../../../db/schema.js';
import { deflatedPieces, deflateForStore, keepDeflated } from '../../../shared/gzip-pieces.js';
import { Post } from '../posts.schemas.js';

type Executor = Kysely<Database>;

/**
 * The version of a post's serialized form beyond its schema. Bump it whenever the presenter or the serializer
 * changes what a post's JSON holds, or when what is stored with a render changes (its deflated form): renders
 * stored under another version are never served, and are built again. A change to the Post schema (a new field)
 * moves the format by itself. post-renders.test.ts fails until a bump is due.
 */
export const POST_RENDER_VERSION = 6;

/** The Post schema as it shapes a render; a change to it leaves every stored render unserved. */
const POST_SCHEMA = crypto.hash('sha1', JSON.stringify(Post), 'base64url');

/** What a render depends on besides the rows: its version, the schema, and the public URL media links use. */
export function renderFormat(publicUrl: string): string {
  return crypto.hash('sha1', `${POST_RENDER_VERSION}\n${POST_SCHEMA}\n${publicUrl}`, 'base64url');
}

/**
 * What a read asks of the stored renders: those built for `format`, and with `deflated` their deflated forms too
 * (shared/gzip-pieces.ts), for an answer the client asked to have in gzip.
 */
export interface StoredForms {
  format: string;
  deflated: boolean;
}

/**
 * A post a read found, with the labels that were current when it was read and its stored render when
 * that render was built under the same labels (else null). The labels are read before anything a new
 * render is built from, so a write in between leaves the new render labelled as already stale.
 */
export interface PostHandle {
  id: string;
  /** The post's status: the content API answers only published ones. */
  status: string;
  render_stamp: number;
  /** The sum of its related posts' render stamps (postsRepository): a write to one of them moves it. */
  related_stamp: number;
  embeds_version: number;
  /** UTF-8 JSON (see PostRendersTable.json) when a current render is stored and small; else null. */
  json: Buffer | string | null;
  /** Its deflated form (PostRendersTable.json_deflated) when it came with `json` and the read asked for it. */
  json_deflated: Buffer | null;
  /** The size of the current stored render, large or small; null when none is current. */
  render_bytes: number | null;
  /** The post's words: what its render will weigh, roughly, before it is built. */
  word_count: number;
  /** The workspace's count of posts not deleted, read with the labels: an unfiltered list's total. */
  live_post_count: number;
}

type Labels = Pick<PostHandle, 'render_stamp' | 'related_stamp' | 'embeds_version'>;

const sameLabels = (row: Labels, handle: Labels) =>
  Number(row.render_stamp) === Number(handle.render_stamp) &&
  Number(row.related_stamp) === Number(handle.related_stamp) &&
  Number(row.embeds_version) === Number(handle.embeds_version);

type RenderColumn = 'json' | 'html' | 'json_deflated';

/**
 * Columns of the stored renders of these handles that are still current for their labels, by post id: a render
 * replaced since the handles were read (its labels moved) is left out, so it is built again. A render without
 * the first column (no HTML kept yet) is left out too.
 */
async function currentColumns<C extends RenderColumn>(
  db: Executor,
  workspaceId: string,
  format: string,
  handles: readonly PostHandle[],
  columns: readonly [C, ...C[]],
): Promise<Map<string, { [K in C]: Database['post_renders'][K] }>> {
  const found = new Map<string, { [K in C]: Database['post_renders'][K] }>();
  if (handles.length === 0) return found;
  const rows = await db
    .selectFrom('post_renders')
    .select(['post_id', 'render_stamp', 'related_stamp', 'embeds_version', ...columns])
    .where('workspace_id', '=', workspaceId)
    .where('format', '=', format)
    .where(
      'post_id',
      'in',
      handles.map((handle) => handle.id),
    )
    .execute();
  const labels = new Map(handles.map((handle) => [handle.id, handle]));
  // The generic columns leave Kysely's row type opaque; these are the columns selected above.
  for (const row of rows as unknown as Array<
    Labels & { post_id: string } & { [K in C]: Database['post_renders'][K] }
  >) {
    const handle = labels.get(row.post_id);
    if (handle !== undefined && row[columns[0]] !== null && sameLabels(row, handle)) found.set(row.post_id, row);
  }
  return found;
}

/** `json` with its stored deflated form kept with it (shared/gzip-pieces.ts), when there is one. */
export function withDeflated(json: Buffer, deflated: Buffer | null | undefined): Buffer {
  return deflated ? keepDeflated(json, [deflated]) : json;
}

/** The deflated form to store with a render: the one it came with when it was read, else made now. */
function storedDeflated(json: Buffer): Buffer {
  const kept = deflatedPieces(json);
  if (kept?.length === 1) return kept[0]!;
  const made = deflateForStore(json);
  keepDeflated(json, [made]);
  return made;
}

export const postRendersRepository = {
  /**
   * The stored renders of these handles that are still current for their labels, by post id; with their deflated
   * forms kept with them (shared/gzip-pieces.ts) when `deflated`, for an answer the client asked to have in gzip.
   */
  async findJson(
    db: Executor,
    workspaceId: string,
    format: string,
    handles: readonly PostHandle[],
    { deflated = false } = {},
  ): Promise<Map<string, Buffer>> {
    const found = await currentColumns(
      db,
      workspaceId,
      format,
      handles,
      deflated ? ['json', 'json_deflated'] : ['json'],
    );
    return new Map(
      [...found].map(([id, row]) => {
        const json = typeof row.json === 'string' ? Buffer.from(row.json) : row.json;
        return [id, withDeflated(json, 'json_deflated' in row ? (row.json_deflated as Buffer | null) : null)];
      }),
    );
  },

  /** The HTML kept with these handles' renders, where it is kept and the render is still current. */
  async findHtml(
    db: Executor,
    workspaceId: string,
    format: string,
    handles: readonly PostHandle[],
  ): Promise<Map<string, string>> {
    const found = await currentColumns(db, workspaceId, format, handles, ['html']);
    return new Map([...found].map(([id, row]) => [id, row.html!]));
  },

  /**
   * Stores new renders under the labels of the handles they were built for; an older render is replaced.
   * As bytes where the dialect keeps them: a list then joins its renders without decoding or encoding them.
   */
  async store(
    db: Executor,
    dialect: DialectHelpers,
    workspaceId: string,
    format: string,
    renders: ReadonlyArray<{ handle: PostHandle; json: Buffer; html?: string | undefined }>,
  ): Promise<void> {
    if (renders.length === 0) return;
    // In one order for every statement: two lists storing the same posts concurrently on PostgreSQL then
    // wait for each other's row locks instead of deadlocking.
    const ordered = [...renders].sort((a, b) => (a.handle.id < b.handle.id ? -1 : a.handle.id > b.handle.id ? 1 : 0));
    await db
      .insertInto('post_renders')
      .values(
        ordered.map(({ handle, json, html }) => ({
          post_id: handle.id,
          workspace_id: workspaceId,
          render_stamp: handle.render_stamp,
          related_stamp: handle.related_stamp,
          embeds_version: handle.embeds_version,
          format,
          json: dialect.textBytes(json),
          json_deflated: storedDeflated(json),
          html: html ?? null,
        })),
      )
      .onConflict((oc) =>
        oc.column('post_id').doUpdateSet((eb) => ({
          render_stamp: eb.ref('excluded.render_stamp'),
          related_stamp: eb.ref('excluded.related_stamp'),
          embeds_version: eb.ref('excluded.embeds_version'),
          format: eb.ref('excluded.format'),
          json: eb.ref('excluded.json'),
          json_deflated: eb.ref('excluded.json_deflated'),
          html: eb.ref('excluded.html'),
        })),
      )
      .execute();
  },
};
