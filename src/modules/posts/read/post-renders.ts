import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../../../db/dialects/dialect.js';
import type { Database } from '../../../db/schema.js';
import { Post } from '../posts.schemas.js';

type Executor = Kysely<Database>;

/**
 * The version of a post's serialized form beyond its schema. Bump it whenever the presenter or the serializer
 * changes what a post's JSON holds: renders stored under another version are never served. A change to the Post
 * schema (a new field) moves the format by itself. post-renders.test.ts fails until a bump is due.
 */
export const POST_RENDER_VERSION = 5;

/** The Post schema as it shapes a render; a change to it leaves every stored render unserved. */
const POST_SCHEMA = crypto.hash('sha1', JSON.stringify(Post), 'base64url');

/** What a render depends on besides the rows: its version, the schema, and the public URL media links use. */
export function renderFormat(publicUrl: string): string {
  return crypto.hash('sha1', `${POST_RENDER_VERSION}\n${POST_SCHEMA}\n${publicUrl}`, 'base64url');
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

/**
 * One column of the stored renders of these handles that are still current for their labels, by post id: a
 * render replaced since the handles were read (its labels moved) is left out, so it is built again.
 */
async function currentColumn<C extends 'json' | 'html'>(
  db: Executor,
  workspaceId: string,
  format: string,
  handles: readonly PostHandle[],
  column: C,
): Promise<Map<string, NonNullable<Database['post_renders'][C]>>> {
  const found = new Map<string, NonNullable<Database['post_renders'][C]>>();
  if (handles.length === 0) return found;
  const rows = await db
    .selectFrom('post_renders')
    .select(['post_id', 'render_stamp', 'related_stamp', 'embeds_version', column])
    .where('workspace_id', '=', workspaceId)
    .where('format', '=', format)
    .where(
      'post_id',
      'in',
      handles.map((handle) => handle.id),
    )
    .execute();
  const labels = new Map(handles.map((handle) => [handle.id, handle]));
  // The generic column leaves Kysely's row type opaque; these are the columns selected above.
  for (const row of rows as unknown as Array<Labels & { post_id: string } & Record<C, Database['post_renders'][C]>>) {
    const handle = labels.get(row.post_id);
    const value = row[column];
    if (handle !== undefined && value !== null && sameLabels(row, handle)) found.set(row.post_id, value!);
  }
  return found;
}

export const postRendersRepository = {
  /** The stored renders of these handles that are still current for their labels, by post id. */
  async findJson(
    db: Executor,
    workspaceId: string,
    format: string,
    handles: readonly PostHandle[],
  ): Promise<Map<string, Buffer>> {
    const found = await currentColumn(db, workspaceId, format, handles, 'json');
    return new Map([...found].map(([id, json]) => [id, typeof json === 'string' ? Buffer.from(json) : json]));
  },

  /** The HTML kept with these handles' renders, where it is kept and the render is still current. */
  findHtml(
    db: Executor,
    workspaceId: string,
    format: string,
    handles: readonly PostHandle[],
  ): Promise<Map<string, string>> {
    return currentColumn(db, workspaceId, format, handles, 'html');
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
          html: eb.ref('excluded.html'),
        })),
      )
      .execute();
  },
};
