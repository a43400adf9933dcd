import type { DatabaseHandle } from '../../db/database.js';
import { notFound } from '../../errors.js';
import { pageOf, type PageRequest, type Paginated } from '../../shared/paging.js';
import { revisionsRepository, type RevisedKind, type RevisionRow } from '../../writes/revisions.repository.js';
import type { Actor } from '../../security/actor.js';
import { pagesRepository } from '../pages/pages.repository.js';
import type { Page, PageUpdateBody } from '../pages/pages.schemas.js';
import type { PagesService } from '../pages/pages.service.js';
import { postsRepository } from '../posts/posts.repository.js';
import type { Post, PostUpdateBody } from '../posts/posts.schemas.js';
import type { PostsService } from '../posts/posts.service.js';
import type { PageRevision, PostRevision, RevisionSummary } from './revisions.schemas.js';
import { presentRevision, presentRevisionSummary } from './revisions.presenter.js';

const LIVE_ID = { post: postsRepository.liveId, page: pagesRepository.liveId } as const;
const NAME = { post: 'Post', page: 'Page' } as const;

/**
 * What a restore writes: the revision's fields but its status and publishedAt. Restoring content never
 * publishes or unpublishes (a PATCH of `status` does that), so a published post stays published with the
 * older text, and an archived one stays archived.
 */
function restoredFields(row: RevisionRow): Record<string, unknown> {
  const { status: _status, publishedAt: _publishedAt, ...fields } = JSON.parse(row.fields) as Record<string, unknown>;
  return fields;
}

/**
 * The writer of a restore. A restore is an update of a draft like any save, so without this its revision would
 * merge into the writer's open window, and the next save into it: the step back would vanish from the history.
 * Said by the writer, it reaches the one place revisions are written (writes/revision-windows.ts), which then
 * neither merges the restore nor leaves its revision open; the restore's own check and seal go with the actor.
 */
function ownStep(actor: Actor): Actor {
  return { ...actor, ownRevision: true };
}

/**
 * The revisions of posts and pages (recorded by contentWrite, writes/revisions.ts): listed, read, restored.
 * A restore is a PATCH of the revision's fields through the resource's own service, so it is checked like
 * one (a slug taken since is a 409, an author, category or media deleted since a 400 naming the field) and
 * keeps a revision and records events of its own: a step of its own in the history, never merged with a save.
 */
export function createRevisionsService(
  database: DatabaseHandle,
  writers: { posts: PostsService; pages: PagesService },
) {
  const { db } = database;

  async function requireId(actor: Actor, kind: RevisedKind, idOrSlug: string): Promise<string> {
    const id = await LIVE_ID[kind](db, actor.workspaceId, idOrSlug);
    if (id === undefined) throw notFound(NAME[kind]);
    return id;
  }

  async function requireRevision(actor: Actor, kind: RevisedKind, idOrSlug: string, n: number): Promise<RevisionRow> {
    const id = await requireId(actor, kind, idOrSlug);
    const row = await revisionsRepository.find(db, kind, actor.workspaceId, id, n);
    if (!row) throw notFound('Revision');
    return row;
  }

  return {
    async list(
      actor: Actor,
      kind: RevisedKind,
      idOrSlug: string,
      page: PageRequest,
    ): Promise<Paginated<RevisionSummary>> {
      const id = await requireId(actor, kind, idOrSlug);
      const { rows, total } = await revisionsRepository.list(db, kind, actor.workspaceId, id, page);
      return pageOf(page, rows.map(presentRevisionSummary), total);
    },

    async getPostRevision(actor: Actor, idOrSlug: string, n: number): Promise<PostRevision> {
      return presentRevision<PostUpdateBody>(await requireRevision(actor, 'post', idOrSlug, n));
    },

    async getPageRevision(actor: Actor, idOrSlug: string, n: number): Promise<PageRevision> {
      return presentRevision<PageUpdateBody>(await requireRevision(actor, 'page', idOrSlug, n));
    },

    async restorePost(actor: Actor, idOrSlug: string, n: number): Promise<Post> {
      const row = await requireRevision(actor, 'post', idOrSlug, n);
      return writers.posts.update(ownStep(actor), row.resource_id, restoredFields(row) as PostUpdateBody);
    },

    async restorePage(actor: Actor, idOrSlug: string, n: number): Promise<Page> {
      const row = await requireRevision(actor, 'page', idOrSlug, n);
      return writers.pages.update(ownStep(actor), row.resource_id, restoredFields(row) as PageUpdateBody);
    },
  };
}

export type RevisionsService = ReturnType<typeof createRevisionsService>;
