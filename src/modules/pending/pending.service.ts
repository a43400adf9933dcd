import type { Kysely } from 'kysely';
import type { DatabaseHandle } from '../../db/database.js';
import type { RowLock } from '../../db/locks.js';
import type { Database } from '../../db/schema.js';
import { writeTransaction } from '../../db/transaction.js';
import { AppError, conflict, notFound, type ValidationIssue } from '../../errors.js';
import type { Actor } from '../../security/actor.js';
import type { Writer } from '../../security/writer.js';
import { nowIso } from '../../shared/time.js';
import type { AlongsideWriter } from '../../writes/content-write.js';
import { contentKind } from '../../writes/kinds.js';
import { rehearse } from '../../writes/rehearsal.js';
import { nextVersion, type VersionCondition } from '../../writes/versions.js';
import { pagesRepository } from '../pages/pages.repository.js';
import type { Page, PageUpdateBody } from '../pages/pages.schemas.js';
import type { PagesService } from '../pages/pages.service.js';
import { postsRepository } from '../posts/posts.repository.js';
import type { Post, PostUpdateBody } from '../posts/posts.schemas.js';
import type { PostsService } from '../posts/posts.service.js';
import type { PostReads } from '../posts/read/post-reads.js';
import { pendingRepository as repo, type PendingKind, type PendingRow } from './pending.repository.js';
import type { ApplyBody, Pending, PendingBody } from './pending.schemas.js';

/** What a request on a pending set names of it: `If-Match` (its versions) and `If-None-Match: *`. */
export interface PendingCondition {
  ifMatch?: VersionCondition;
  ifNoneMatch?: boolean;
}

/** The live version a save or Update was based on is not the live one now: the PATCH's own 409. */
const staleLive = (label: string, version: string) =>
  conflict(`${label} changed since these changes were made on it`, { reason: 'stale', version });

/** The pending set moved on since the writer read it (another writer saved): theirs is `version`. */
const pendingChanged = (version: string | null) =>
  conflict('The pending changes were saved by someone else since you read them', {
    reason: 'pending_changed',
    version,
  });

const noPending = () => notFound('Pending changes');

function checkCondition(row: PendingRow | undefined, condition: PendingCondition): void {
  if (condition.ifNoneMatch && row) throw pendingChanged(row.updated_at);
  const ifMatch = condition.ifMatch;
  if (ifMatch === undefined) return;
  if (!row) throw pendingChanged(null);
  if (!ifMatch.any && !ifMatch.versions.includes(row.updated_at)) throw pendingChanged(row.updated_at);
}

/**
 * A write's refusal as a refusal of the pending set: its issues name fields of the set, under `/changes`, since
 * that is where the fields are in a save's body, and where the writer finds them before an Update.
 */
function asRefusalOfChanges(error: unknown): never {
  if (error instanceof AppError && error.code === 'BAD_REQUEST' && Array.isArray(error.details?.issues)) {
    const issues = (error.details.issues as ValidationIssue[]).map((issue) =>
      issue.in === undefined || issue.in === 'body' ? { ...issue, path: `/changes${issue.path}` } : issue,
    );
    throw new AppError('BAD_REQUEST', error.message, { ...error.details, issues });
  }
  throw error;
}

function present(row: PendingRow, liveVersion: string): Pending {
  return {
    resourceType: row.resource_type,
    resourceId: row.resource_id,
    baseVersion: row.base_version,
    stale: row.base_version !== liveVersion,
    changes: JSON.parse(row.changes) as Record<string, unknown>,
    base: JSON.parse(row.base_fields) as Record<string, unknown>,
    updatedBy: { userId: row.updated_by_user_id, apiKeyId: row.updated_by_api_key_id },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** What the service needs of posts and of pages. */
interface PendingKindAccess {
  label: 'Post' | 'Page';
  find(
    workspaceId: string,
    idOrSlug: string,
    executor?: Kysely<Database>,
    lock?: RowLock,
  ): Promise<{ id: string; status: string; updated_at: string } | undefined>;
  update(
    writer: Actor,
    id: string,
    changes: Record<string, unknown>,
    ifVersion: VersionCondition,
  ): Promise<Post | Page>;
  current(actor: Actor, id: string): Promise<Post | Page>;
}

/**
 * The pending changes of live posts and pages (docs/publishing.md): the edits the studio saves while a post is
 * published, kept apart from the live row, so the API, the content API, caches, webhooks, the feed and revisions
 * see none of them until Update applies them as one write through the posts' or pages' own update. Every save is
 * rehearsed as that write (writes/rehearsal.ts), so a set the server holds is one Update would accept when saved.
 */
export function createPendingService(
  database: DatabaseHandle,
  content: { posts: PostsService; pages: PagesService; postReads: PostReads },
) {
  const { db } = database;

  const kinds: Record<PendingKind, PendingKindAccess> = {
    post: {
      label: 'Post',
      find: (workspaceId, idOrSlug, executor = db, lock) =>
        postsRepository.findByIdOrSlug(executor, workspaceId, idOrSlug, lock),
      update: (writer: Actor, id: string, changes: Record<string, unknown>, ifVersion: VersionCondition) => {
        const { tagIds, ...fields } = changes as PostUpdateBody & { tagIds?: string[] };
        return content.posts.update(writer, id, fields, ifVersion, tagIds ? { tagIds } : {});
      },
      current: async (actor: Actor, id: string) =>
        JSON.parse((await content.postReads.get(actor, id)).toString()) as Post,
    },
    page: {
      label: 'Page',
      find: (workspaceId, idOrSlug, executor = db, lock) =>
        pagesRepository.findByIdOrSlug(executor, workspaceId, idOrSlug, lock),
      update: (writer: Actor, id: string, changes: Record<string, unknown>, ifVersion: VersionCondition) =>
        content.pages.update(writer, id, changes as PageUpdateBody, ifVersion),
      current: (actor: Actor, id: string) => content.pages.get(actor, id),
    },
  };

  /**
   * The writable fields of the live version `version`, as a revision keeps them: read with the row held until the
   * set is written, and only while that version is still the live one, so the set keeps the version it names.
   */
  async function baseOf(
    trx: Kysely<Database>,
    kind: PendingKind,
    actor: Actor,
    id: string,
    version: string,
  ): Promise<string> {
    const { label, find } = kinds[kind];
    const now = await find(actor.workspaceId, id, trx, { dialect: database.dialect, strength: 'noKeyUpdate' });
    if (!now) throw notFound(label);
    if (now.updated_at !== version) throw staleLive(label, now.updated_at);
    const snapshot = (await contentKind(kind).snapshots!(trx, actor.workspaceId, [id])).get(id);
    return snapshot?.fields ?? '{}';
  }

  async function live(actor: Writer, kind: PendingKind, idOrSlug: string) {
    const resource = await kinds[kind].find(actor.workspaceId, idOrSlug);
    if (!resource) throw notFound(kinds[kind].label);
    return resource;
  }

  /**
   * The same, saying what it shows: `pending` the set applied, `none` the resource as it is (it has no set), and
   * with `refused: 'live'`, `refused` the resource as it is when Update would refuse the set now. A review link
   * shows this: its reader sees the live version rather than nothing while the writer mends the set.
   */
  async function view(
    actor: Actor,
    kind: PendingKind,
    id: string,
    { refused = 'throw' }: { refused?: 'throw' | 'live' } = {},
  ): Promise<{ resource: Post | Page; pending: 'pending' | 'none' | 'refused' }> {
    const resource = await live(actor, kind, id);
    const row = await repo.find(db, actor.workspaceId, kind, resource.id);
    if (!row) return { resource: await kinds[kind].current(actor, resource.id), pending: 'none' };
    const changes = JSON.parse(row.changes) as Record<string, unknown>;
    // The reader may be a content key, whose actor is no user; the rehearsal records no one, so it writes as no one.
    const nobody = { ...actor, userId: null, apiKeyId: null } as unknown as Actor;
    try {
      const applied = await rehearse(nobody, (writer) => kinds[kind].update(writer, resource.id, changes, undefined));
      return { resource: applied, pending: 'pending' };
    } catch (error) {
      if (refused === 'throw' || !(error instanceof AppError) || error.status >= 500) throw error;
      return { resource: await kinds[kind].current(actor, resource.id), pending: 'refused' };
    }
  }

  return {
    async get(actor: Actor, kind: PendingKind, idOrSlug: string): Promise<Pending> {
      const resource = await live(actor, kind, idOrSlug);
      const row = await repo.find(db, actor.workspaceId, kind, resource.id);
      if (!row) throw noPending();
      return present(row, resource.updated_at);
    },

    /**
     * Replaces the set with `body.changes`, made on the live version `body.baseVersion`. Only a published post or
     * page keeps one (a draft is edited directly); the changes must be what Update would accept now.
     */
    async save(
      actor: Actor,
      kind: PendingKind,
      idOrSlug: string,
      body: PendingBody,
      condition: PendingCondition = {},
    ): Promise<Pending> {
      const resource = await live(actor, kind, idOrSlug);
      const { label } = kinds[kind];
      if (resource.status !== 'published')
        throw conflict(`This ${kind} is not live: edit it directly, its saves are not public`, {
          reason: 'not_live',
          status: resource.status,
        });
      if (body.baseVersion !== resource.updated_at) throw staleLive(label, resource.updated_at);
      const changes = body.changes as Record<string, unknown>;
      await rehearse(actor, (writer) =>
        kinds[kind].update(writer, resource.id, changes, { any: false, versions: [body.baseVersion], tags: [] }),
      ).catch(asRefusalOfChanges);

      return writeTransaction(database, async (trx) => {
        const lock = { dialect: database.dialect, strength: 'update' } as const;
        const row = await repo.find(trx, actor.workspaceId, kind, resource.id, lock);
        checkCondition(row, condition);
        const baseFields =
          row?.base_version === body.baseVersion
            ? row.base_fields
            : await baseOf(trx, kind, actor, resource.id, body.baseVersion);
        const now = nowIso();
        const written: PendingRow = {
          workspace_id: actor.workspaceId,
          resource_type: kind,
          resource_id: resource.id,
          base_version: body.baseVersion,
          base_fields: baseFields,
          changes: JSON.stringify(changes),
          updated_by_user_id: actor.userId,
          updated_by_api_key_id: actor.apiKeyId,
          created_at: row?.created_at ?? now,
          updated_at: row ? nextVersion(row.updated_at, now) : now,
        };
        if (row) await repo.update(trx, actor.workspaceId, kind, resource.id, written);
        else await repo.insert(trx, written);
        return present(written, resource.updated_at);
      });
    },

    /** Drops the set; the answer is the set as it was. */
    async discard(
      actor: Actor,
      kind: PendingKind,
      idOrSlug: string,
      condition: PendingCondition = {},
    ): Promise<Pending> {
      const resource = await live(actor, kind, idOrSlug);
      return writeTransaction(database, async (trx) => {
        const lock = { dialect: database.dialect, strength: 'update' } as const;
        const row = await repo.find(trx, actor.workspaceId, kind, resource.id, lock);
        if (!row) throw noPending();
        checkCondition(row, condition);
        await repo.remove(trx, actor.workspaceId, kind, resource.id);
        return present(row, resource.updated_at);
      });
    },

    /**
     * Update: the set applied as one write of the resource (one revision, one event, its derived fields and
     * scores), with `body.status` when a status move goes with it, and the set deleted in the same transaction.
     * The live version must still be the set's base (else the PATCH's 409 "stale"); a refusal keeps the set.
     */
    async apply(
      actor: Actor,
      kind: PendingKind,
      idOrSlug: string,
      body: ApplyBody = {},
      condition: PendingCondition = {},
    ): Promise<Post | Page> {
      const resource = await live(actor, kind, idOrSlug);
      const row = await repo.find(db, actor.workspaceId, kind, resource.id);
      if (!row) throw noPending();
      checkCondition(row, condition);
      const changes = JSON.parse(row.changes) as Record<string, unknown>;
      if (body.status !== undefined) changes.status = body.status;
      const applying: Actor & AlongsideWriter = {
        ...actor,
        // The set goes with the write, and only the set that was read: a save meanwhile rolls the write back.
        alongside: async (trx) => {
          if (!(await repo.remove(trx, actor.workspaceId, kind, resource.id, row.updated_at)))
            throw pendingChanged(null);
        },
      };
      return kinds[kind]
        .update(applying, resource.id, changes, { any: false, versions: [row.base_version], tags: [] })
        .catch((error: unknown) => {
          if (error instanceof AppError && error.details?.reason === 'stale')
            throw staleLive(kinds[kind].label, String(error.details.version));
          return asRefusalOfChanges(error);
        });
    },

    /**
     * The resource as Update would leave it now (as it is, when it has no pending set): what a preview token
     * that carries the pending changes shows. The live version need not be the set's base; a set Update would
     * refuse now (a tag deleted since) is that refusal.
     */
    async outlook(actor: Actor, kind: PendingKind, id: string): Promise<Post | Page> {
      return (await view(actor, kind, id)).resource;
    },

    view,
  };
}

export type PendingService = ReturnType<typeof createPendingService>;
