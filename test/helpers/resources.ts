import { expect } from 'vitest';
import { EXTERNAL, type TestContext } from './app.js';
import type { Json, Response } from './posts.js';

/** The CRUD routes of one resource with a slug (authors, categories, tags), called as a client would. */
export function resourceApi(ctx: TestContext, resource: 'authors' | 'categories' | 'tags') {
  const send = (key: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, payload?: unknown) =>
    ctx.app.inject({
      method,
      url: `${EXTERNAL}/${resource}${path}`,
      headers: { 'x-api-key': key },
      ...(payload === undefined ? {} : { payload: payload as Json }),
    });
  return {
    list: (key: string, query: Record<string, string | number | boolean> = {}) => {
      const search = new URLSearchParams(
        Object.entries(query).map(([name, value]): [string, string] => [name, String(value)]),
      ).toString();
      return send(key, 'GET', search ? `?${search}` : '');
    },
    get: (key: string, idOrSlug: string) => send(key, 'GET', `/${encodeURIComponent(idOrSlug)}`),
    create: (key: string, body: unknown) => send(key, 'POST', '', body),
    patch: (key: string, idOrSlug: string, body: unknown) =>
      send(key, 'PATCH', `/${encodeURIComponent(idOrSlug)}`, body),
    remove: (key: string, idOrSlug: string) => send(key, 'DELETE', `/${encodeURIComponent(idOrSlug)}`),
  };
}
export type ResourceApi = ReturnType<typeof resourceApi>;

/** The parsed body of a response that must have the given status. */
export function bodyOf<T>(response: Response, status: number): T {
  expect(response.statusCode, response.body).toBe(status);
  return response.json() as T;
}

export interface Page<T> {
  data: T[];
  page: number;
  pageSize: number;
  order: 'asc' | 'desc';
  orderBy?: string;
  total: number;
  totalPages: number;
}

/** The workspace's content version, which every content write bumps in its transaction. */
export async function contentVersion(ctx: TestContext, workspaceId: string): Promise<number> {
  const row = await ctx.runtime.database.db
    .selectFrom('workspaces')
    .select('content_version')
    .where('id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return Number(row.content_version);
}

/** How many statements `work` sent to the database. */
export async function queriesOf(ctx: TestContext, work: () => Promise<unknown>): Promise<number> {
  const before = ctx.runtime.database.stats.queries;
  await work();
  return ctx.runtime.database.stats.queries - before;
}
