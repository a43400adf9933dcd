import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import type { Database, PostRow } from '../../src/db/schema.js';
import type { Post } from '../../src/modules/posts/posts.schemas.js';
import { EXTERNAL, type TestContext } from './app.js';

export type { Post };
export type Json = Record<string, unknown>;
export type Response = Awaited<ReturnType<TestContext['app']['inject']>>;
export type Block = Post['bodyJson'][number];
export interface PaginatedPosts {
  data: Post[];
  page: number;
  pageSize: number;
  order: 'asc' | 'desc';
  orderBy?: string;
  total: number;
  totalPages: number;
}
export interface Issue {
  path: string;
  message: string;
  in?: string;
}
export interface ErrorBody {
  code: string;
  message: string;
  details: { issues?: Issue[]; [key: string]: unknown } | null;
}

export type Query = Record<string, string | number | undefined>;

export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';

/** The posts routes, each call made with the key given, as a client would make it. */
export function postsApi(ctx: TestContext) {
  const send = (key: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, payload?: unknown) =>
    ctx.app.inject({
      method,
      url: `${EXTERNAL}/posts${path}`,
      headers: { 'x-api-key': key },
      ...(payload === undefined ? {} : { payload: payload as Json }),
    });
  return {
    list: (key: string, query: Query = {}) => {
      const pairs = Object.entries(query).flatMap(([name, value]): Array<[string, string]> =>
        value === undefined ? [] : [[name, String(value)]],
      );
      const search = new URLSearchParams(pairs).toString();
      return send(key, 'GET', search ? `?${search}` : '');
    },
    get: (key: string, idOrSlug: string) => send(key, 'GET', `/${encodeURIComponent(idOrSlug)}`),
    create: (key: string, body: unknown) => send(key, 'POST', '', body),
    patch: (key: string, idOrSlug: string, body: unknown) =>
      send(key, 'PATCH', `/${encodeURIComponent(idOrSlug)}`, body),
    remove: (key: string, idOrSlug: string) => send(key, 'DELETE', `/${encodeURIComponent(idOrSlug)}`),
    attach: (key: string, idOrSlug: string, tagIds: unknown) =>
      send(key, 'POST', `/${encodeURIComponent(idOrSlug)}/tags`, { tagIds }),
    detach: (key: string, idOrSlug: string, tagIds: unknown) =>
      send(key, 'DELETE', `/${encodeURIComponent(idOrSlug)}/tags`, { tagIds }),
  };
}
export type PostsApi = ReturnType<typeof postsApi>;

/** Creates a post through the API and insists on the 201. */
export async function createPost(api: PostsApi, key: string, body: Json): Promise<Post> {
  const response = await api.create(key, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as Post;
}

export async function getPost(api: PostsApi, key: string, idOrSlug: string): Promise<Post> {
  const response = await api.get(key, idOrSlug);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Post;
}

export async function listPosts(api: PostsApi, key: string, query: Query = {}): Promise<PaginatedPosts> {
  const response = await api.list(key, query);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as PaginatedPosts;
}

/** A 400 BAD_REQUEST whose issues include one at `path` (a JSON Pointer); returns that issue. */
export function expectIssue(response: Response, path: string, pattern?: RegExp): Issue {
  expect(response.statusCode, response.body).toBe(400);
  const body = response.json() as ErrorBody;
  expect(body.code).toBe('BAD_REQUEST');
  const issue = body.details?.issues?.find((candidate) => candidate.path === path);
  expect(issue, response.body).toBeDefined();
  if (pattern) expect(issue!.message).toMatch(pattern);
  return issue!;
}

export function expectError(response: Response, status: number, code: string): ErrorBody {
  expect(response.statusCode, response.body).toBe(status);
  const body = response.json() as ErrorBody;
  expect(body.code).toBe(code);
  return body;
}

/** Columns no route writes (exact timestamps, scores), set straight in the table. */
export async function setPostColumns(db: Kysely<Database>, id: string, columns: Partial<PostRow>): Promise<void> {
  await db.updateTable('posts').set(columns).where('id', '=', id).execute();
}

export async function storedPost(db: Kysely<Database>, id: string): Promise<PostRow> {
  return db.selectFrom('posts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export const paragraph = (text: string) => ({ type: 'paragraph', text });
export const heading = (text: string, level = 2, id?: string) => ({
  type: 'heading',
  level,
  text,
  ...(id === undefined ? {} : { id }),
});
export const image = (mediaId: string, extra: Json = {}) => ({ type: 'image', mediaId, ...extra });
export const words = (count: number, word = 'word') => Array.from({ length: count }, () => word).join(' ');
