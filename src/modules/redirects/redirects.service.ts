import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DatabaseHandle } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { AppError, conflict, invalid, notFound, type ValidationIssue } from '../../errors.js';
import { pageOf, type PageRequest, type Paginated } from '../../shared/paging.js';
import { nowIso } from '../../shared/time.js';
import { normalizePath, normalizeTarget, pathOfTarget, type PathResult } from '../../shared/url-path.js';
import type { Actor } from '../../security/actor.js';
import { contentWrite, type ContentWriteScope } from '../../writes/content-write.js';
import { redirectColumns } from './redirects.columns.js';
import { presentRedirect } from './redirects.presenter.js';
import { redirectsRepository as repo, type RedirectPatch, type RedirectRow } from './redirects.repository.js';
import type {
  Redirect,
  RedirectCreateBody,
  RedirectListQuery,
  RedirectResolution,
  RedirectSortKey,
  RedirectUpdateBody,
} from './redirects.schemas.js';

type Executor = Kysely<Database>;
type Hop = Pick<RedirectRow, 'from_path' | 'to_path'>;

/** The normalised value, or a 400 that names the field (ajv reports the first problem only; so does this). */
function normalised(result: PathResult, part: ValidationIssue['in'], field: string): string {
  if (result.ok) return result.value;
  throw invalid([{ in: part, path: `/${field}`, message: `${field} ${result.message}` }]);
}

/**
 * Follows a chain of redirects from `first`: each local target is looked up as a fromPath, until a
 * URL, a path no redirect starts from, or a path already visited (a loop). The visited set also
 * keeps a table corrupted by hand from spinning a request forever.
 */
async function follow(
  first: Hop,
  lookup: (path: string) => Promise<Hop | undefined>,
): Promise<{ hops: Hop[]; loopsBackTo: string | null }> {
  const hops = [first];
  const visited = new Set([first.from_path]);
  for (let next = pathOfTarget(first.to_path); next !== null;) {
    if (visited.has(next)) return { hops, loopsBackTo: next };
    const hop = await lookup(next);
    if (!hop) break;
    hops.push(hop);
    visited.add(next);
    next = pathOfTarget(hop.to_path);
  }
  return { hops, loopsBackTo: null };
}

export function createRedirectsService(database: DatabaseHandle) {
  const { db, dialect } = database;
  async function requireRedirect(executor: Executor, workspaceId: string, id: string): Promise<RedirectRow> {
    const row = await repo.findById(executor, workspaceId, id);
    if (!row) throw notFound('Redirect');
    return row;
  }

  /** A path that redirects to itself (ignoring the target's query and fragment) would loop at once. */
  function refuseSelfRedirect(fromPath: string, toPath: string, pointer: '/fromPath' | '/toPath'): void {
    if (pathOfTarget(toPath) === fromPath)
      throw invalid([{ in: 'body', path: pointer, message: 'toPath must lead somewhere other than fromPath' }]);
  }

  /** Checks the chain as it would be once `candidate` is written (replacing the row `replacing`, on a patch). */
  async function refuseLoop(
    trx: Executor,
    workspaceId: string,
    candidate: Hop,
    replacing: string | null,
    pointer: '/fromPath' | '/toPath',
  ) {
    const { hops, loopsBackTo } = await follow(candidate, async (path) => {
      if (path === candidate.from_path) return candidate;
      const row = await repo.findByFromPath(trx, workspaceId, path);
      return row && row.id !== replacing ? row : undefined;
    });
    if (loopsBackTo === null) return;
    const chain = [...hops.map((hop) => hop.from_path), loopsBackTo];
    const message = `This redirect would close a loop: ${chain.join(' → ')}`;
    throw new AppError('BAD_REQUEST', message, { issues: [{ in: 'body', path: pointer, message }], chain });
  }

  async function refuseTakenFromPath(
    trx: Executor,
    workspaceId: string,
    fromPath: string,
    currentId: string | null,
  ): Promise<void> {
    const holder = await repo.findByFromPath(trx, workspaceId, fromPath);
    if (holder && holder.id !== currentId)
      throw conflict(`A redirect from ${fromPath} already exists`, {
        field: 'fromPath',
        fromPath,
        redirectId: holder.id,
      });
  }

  /**
   * Redirect writes run one after the other in a workspace (serialize), so the loop check sees every
   * committed redirect. A unique violation can then only come from a writer outside this service; it is
   * still a 409 naming fromPath, never a 500.
   */
  function writing<T>(actor: Actor, work: (scope: ContentWriteScope) => Promise<T>): Promise<T> {
    return contentWrite(database, actor, async (scope) => {
      await scope.serialize();
      return work(scope);
    });
  }

  return {
    async list(
      actor: Actor,
      query: RedirectListQuery,
      page: PageRequest<RedirectSortKey>,
    ): Promise<Paginated<Redirect>> {
      const { rows, total } = await repo.list(db, dialect, actor.workspaceId, { q: query.q }, page);
      return pageOf(page, rows.map(presentRedirect), total);
    },

    async get(actor: Actor, id: string): Promise<Redirect> {
      return presentRedirect(await requireRedirect(db, actor.workspaceId, id));
    },

    async create(actor: Actor, body: RedirectCreateBody): Promise<Redirect> {
      const workspaceId = actor.workspaceId;
      const candidate: Hop = {
        from_path: normalised(normalizePath(body.fromPath, 'refuse'), 'body', 'fromPath'),
        to_path: normalised(normalizeTarget(body.toPath), 'body', 'toPath'),
      };
      refuseSelfRedirect(candidate.from_path, candidate.to_path, '/toPath');
      return writing(actor, async ({ trx, changed }) => {
        await refuseLoop(trx, workspaceId, candidate, null, '/toPath');
        await refuseTakenFromPath(trx, workspaceId, candidate.from_path, null);
        const now = nowIso();
        const row = {
          ...(redirectColumns.write(body, { create: true }) as Pick<RedirectRow, 'status_code'>),
          id: crypto.randomUUID(),
          ...candidate,
          created_at: now,
          updated_at: now,
        };
        await repo.insert(trx, workspaceId, row);
        changed({ type: 'redirect', id: row.id, slug: null, action: 'created' });
        return presentRedirect({ ...row, workspace_id: workspaceId });
      });
    },

    async update(actor: Actor, id: string, body: RedirectUpdateBody): Promise<Redirect> {
      const workspaceId = actor.workspaceId;
      const fromPath =
        body.fromPath === undefined
          ? undefined
          : normalised(normalizePath(body.fromPath, 'refuse'), 'body', 'fromPath');
      const toPath = body.toPath === undefined ? undefined : normalised(normalizeTarget(body.toPath), 'body', 'toPath');
      // The field the client changed is the one to blame for a self-redirect or a loop.
      const pointer = toPath !== undefined ? '/toPath' : '/fromPath';
      return writing(actor, async ({ trx, changed }) => {
        const current = await requireRedirect(trx, workspaceId, id);
        const next: RedirectRow = {
          ...current,
          ...(redirectColumns.write(body) as RedirectPatch),
          from_path: fromPath ?? current.from_path,
          to_path: toPath ?? current.to_path,
          updated_at: nowIso(),
        };
        refuseSelfRedirect(next.from_path, next.to_path, pointer);
        if (next.from_path !== current.from_path || next.to_path !== current.to_path)
          await refuseLoop(trx, workspaceId, next, current.id, pointer);
        if (next.from_path !== current.from_path)
          await refuseTakenFromPath(trx, workspaceId, next.from_path, current.id);
        const { id: _id, workspace_id: _workspace, created_at: _created, ...patch } = next;
        await repo.update(trx, workspaceId, current.id, patch);
        changed({ type: 'redirect', id: current.id, slug: null, action: 'updated' });
        return presentRedirect(next);
      });
    },

    /** Answers the redirect as it was before it went. */
    async remove(actor: Actor, id: string): Promise<Redirect> {
      const workspaceId = actor.workspaceId;
      return writing(actor, async ({ trx, changed }) => {
        const current = await requireRedirect(trx, workspaceId, id);
        await repo.remove(trx, workspaceId, current.id);
        changed({ type: 'redirect', id: current.id, slug: null, action: 'deleted' });
        return presentRedirect(current);
      });
    },

    /**
     * The redirect matching `path` (its query string and fragment ignored, as a site matches an
     * incoming request), with its target followed through the chain to the end.
     */
    async resolve(actor: Actor, path: string): Promise<RedirectResolution> {
      const workspaceId = actor.workspaceId;
      const matched = await repo.findByFromPath(
        db,
        workspaceId,
        normalised(normalizePath(path, 'strip'), 'query', 'path'),
      );
      if (!matched) throw notFound('Redirect');
      const { hops } = await follow(matched, (next) => repo.findByFromPath(db, workspaceId, next));
      return { ...presentRedirect(matched), finalPath: hops[hops.length - 1]!.to_path, hops: hops.length };
    },
  };
}

export type RedirectsService = ReturnType<typeof createRedirectsService>;
