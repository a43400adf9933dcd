import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { checkSeoMedia } from '../../blocks/image-references.js';
import type { DatabaseHandle } from '../../db/database.js';
import { existingIds } from '../../db/references.js';
import type { AuthorRow, Database } from '../../db/schema.js';
import { conflict, invalid, notFound } from '../../errors.js';
import { pageOf, type PageRequest, type Paginated } from '../../shared/paging.js';
import { foldForSearch, searchText } from '../../shared/search.js';
import { checkExplicitSlug, claimSlug } from '../../shared/slug-claim.js';
import { nowIso } from '../../shared/time.js';
import { contentWrite } from '../../writes/content-write.js';
import type { Actor } from '../../security/actor.js';
import { mediaRepository } from '../media/media.repository.js';
import { loadSiteSettings } from '../workspaces/site-settings.js';
import { presentAuthor } from './authors.presenter.js';
import { authorColumns } from './authors.columns.js';
import { authorsRepository as repo, type AuthorPatch } from './authors.repository.js';

/** The columns the column map writes on create: all of an author's but those the service computes. */
type NewAuthorColumns = Omit<AuthorRow, 'id' | 'workspace_id' | 'slug' | 'search_text' | 'created_at' | 'updated_at'>;
import type { Author, AuthorCreateBody, AuthorListQuery, AuthorSortKey, AuthorUpdateBody } from './authors.schemas.js';

type Executor = Kysely<Database>;

export function createAuthorsService(database: DatabaseHandle, publicUrl: string) {
  const { db, dialect } = database;

  /** Two queries whatever the number of authors: the site settings, and every avatar in one lookup. */
  async function present(executor: Executor, workspaceId: string, rows: readonly AuthorRow[]): Promise<Author[]> {
    const avatarIds = rows.flatMap((row) => (row.avatar_media_id ? [row.avatar_media_id] : []));
    const [settings, mediaRows] = await Promise.all([
      loadSiteSettings(executor, workspaceId),
      mediaRepository.findMany(executor, workspaceId, avatarIds),
    ]);
    const media = new Map(mediaRows.map((row) => [row.id, row]));
    return rows.map((row) => presentAuthor(row, { publicUrl, media, settings }));
  }

  async function presentOne(executor: Executor, workspaceId: string, row: AuthorRow): Promise<Author> {
    const [author] = await present(executor, workspaceId, [row]);
    return author!;
  }

  async function requireAuthor(
    executor: Executor,
    workspaceId: string,
    idOrSlug: string,
    lock?: 'update',
  ): Promise<AuthorRow> {
    const row = await repo.findByIdOrSlug(
      executor,
      workspaceId,
      idOrSlug,
      lock ? { dialect, strength: lock } : undefined,
    );
    if (!row) throw notFound('Author');
    return row;
  }

  async function checkAvatar(
    executor: Executor,
    workspaceId: string,
    avatarMediaId: string | null | undefined,
  ): Promise<void> {
    if (!avatarMediaId) return;
    const known = await existingIds(executor, dialect, 'media', workspaceId, [avatarMediaId]);
    if (!known.has(avatarMediaId))
      throw invalid([{ in: 'body', path: '/avatarMediaId', message: 'no media with this id in this workspace' }]);
  }

  const slugFor = (executor: Executor, workspaceId: string, explicit: string | undefined, name: string) =>
    claimSlug((candidates) => repo.takenSlugs(executor, workspaceId, candidates), explicit, name, 'author');

  return {
    async list(actor: Actor, query: AuthorListQuery, page: PageRequest<AuthorSortKey>): Promise<Paginated<Author>> {
      const filter = { q: query.q ? foldForSearch(query.q) : undefined, isActive: query.isActive };
      const { rows, total } = await repo.list(db, dialect, actor.workspaceId, filter, page);
      return pageOf(page, await present(db, actor.workspaceId, rows), total);
    },

    async get(actor: Actor, idOrSlug: string): Promise<Author> {
      return presentOne(db, actor.workspaceId, await requireAuthor(db, actor.workspaceId, idOrSlug));
    },

    async create(actor: Actor, body: AuthorCreateBody): Promise<Author> {
      checkExplicitSlug(body.slug);
      return contentWrite(database, actor, async ({ trx, workspaceId, changed }) => {
        await checkAvatar(trx, workspaceId, body.avatarMediaId);
        await checkSeoMedia(trx, dialect, workspaceId, body.seo);
        const id = crypto.randomUUID();
        const now = nowIso();
        const displayName = body.displayName.trim();
        const slug = await slugFor(trx, workspaceId, body.slug, displayName);
        await repo.insert(trx, workspaceId, {
          ...(authorColumns.write(body, { create: true }) as NewAuthorColumns),
          id,
          slug,
          search_text: searchText(displayName, slug),
          created_at: now,
          updated_at: now,
        });
        changed({ type: 'author', id, slug, action: 'created' });
        return presentOne(trx, workspaceId, await requireAuthor(trx, workspaceId, id));
      });
    },

    /** Partial: only sent fields change. A new displayName keeps the slug, so published URLs stay put. */
    async update(actor: Actor, idOrSlug: string, body: AuthorUpdateBody): Promise<Author> {
      checkExplicitSlug(body.slug);
      return contentWrite(database, actor, async ({ trx, workspaceId, changed }) => {
        const current = await requireAuthor(trx, workspaceId, idOrSlug);
        await checkAvatar(trx, workspaceId, body.avatarMediaId);
        await checkSeoMedia(trx, dialect, workspaceId, body.seo, current.seo);
        const patch: AuthorPatch = { ...(authorColumns.write(body) as AuthorPatch), updated_at: nowIso() };
        if (body.slug !== undefined && body.slug !== current.slug)
          patch.slug = await slugFor(trx, workspaceId, body.slug, current.display_name);
        if (patch.slug !== undefined || patch.display_name !== undefined)
          patch.search_text = searchText(patch.display_name ?? current.display_name, patch.slug ?? current.slug);
        await repo.update(trx, workspaceId, current.id, patch);
        const author = await requireAuthor(trx, workspaceId, current.id);
        changed({ type: 'author', id: author.id, slug: author.slug, action: 'updated' });
        return presentOne(trx, workspaceId, author);
      });
    },

    /**
     * Refused (409) while a live post carries the author. The row is locked first, so a post being
     * attached to it at the same moment either lands before the count or waits and then fails.
     * Answers the author as it was.
     */
    async remove(actor: Actor, idOrSlug: string): Promise<Author> {
      return contentWrite(database, actor, async ({ trx, workspaceId, changed }) => {
        const current = await requireAuthor(trx, workspaceId, idOrSlug, 'update');
        const posts = await repo.countLivePosts(trx, workspaceId, current.id);
        if (posts > 0) {
          throw conflict(
            `The author is attached to ${posts} live post${posts === 1 ? '' : 's'}; detach or delete them first`,
            {
              reason: 'author_in_use',
              posts,
            },
          );
        }
        const snapshot = await presentOne(trx, workspaceId, current);
        await repo.delete(trx, workspaceId, current.id);
        changed({ type: 'author', id: current.id, slug: current.slug, action: 'deleted' });
        return snapshot;
      });
    },
  };
}

export type AuthorsService = ReturnType<typeof createAuthorsService>;
