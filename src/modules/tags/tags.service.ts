import type { Kysely } from 'kysely';
import { checkSeoMedia } from '../../blocks/image-references.js';
import type { DatabaseHandle } from '../../db/database.js';
import type { Database, TagRow } from '../../db/schema.js';
import { pageOf, type PageRequest, type Paginated } from '../../shared/paging.js';
import { foldForSearch } from '../../shared/search.js';
import { checkExplicitSlug } from '../../shared/slug-claim.js';
import { contentWrite } from '../../writes/content-write.js';
import type { ContentTransaction } from '../../writes/content-transaction.js';
import type { Actor } from '../../security/actor.js';
import { taxonomyRules } from '../content/taxonomy.js';
import { presentTag } from './tags.presenter.js';
import { tagColumns } from './tags.columns.js';
import { tagsRepository as repo, type TagPatch } from './tags.repository.js';
import type { Tag, TagCreateBody, TagListQuery, TagSortKey, TagUpdateBody } from './tags.schemas.js';

type Executor = Kysely<Database>;

/**
 * What a tag's deletion does to the posts that carry it, handed in by createServices (posts embed tags, so the
 * tags module cannot import the posts module back).
 */
export interface TaggedPosts {
  /** Moves the version of every live post with the tag (they answer without it) and answers which they were. */
  touchTagged(trx: ContentTransaction, workspaceId: string, tagId: string): Promise<{ id: string; slug: string }[]>;
}

export function createTagsService(database: DatabaseHandle, taggedPosts: TaggedPosts) {
  const { db, dialect } = database;

  const tags = taxonomyRules<TagRow>('tag', 'Tag', repo);
  const requireTag = (executor: Executor, workspaceId: string, idOrSlug: string) =>
    tags.require(executor, workspaceId, idOrSlug);

  return {
    async list(actor: Actor, query: TagListQuery, page: PageRequest<TagSortKey>): Promise<Paginated<Tag>> {
      const { rows, total } = await repo.list(
        db,
        dialect,
        actor.workspaceId,
        { q: query.q ? foldForSearch(query.q) : undefined },
        page,
      );
      return pageOf(page, rows.map(presentTag), total);
    },

    async get(actor: Actor, idOrSlug: string): Promise<Tag> {
      return presentTag(await requireTag(db, actor.workspaceId, idOrSlug));
    },

    async create(actor: Actor, body: TagCreateBody): Promise<Tag> {
      checkExplicitSlug(body.slug);
      return contentWrite(database, actor, async ({ trx, workspaceId, changed }) => {
        await checkSeoMedia(trx, dialect, workspaceId, body.seo);
        const { id, slug, ...rest } = await tags.created(trx, workspaceId, body);
        await repo.insert(trx, workspaceId, {
          ...(tagColumns.write(body, { create: true }) as Pick<TagRow, 'name' | 'seo'>),
          id,
          slug,
          ...rest,
        });
        changed({ type: 'tag', id, slug, action: 'created' });
        return presentTag(await requireTag(trx, workspaceId, id));
      });
    },

    /** Partial: only sent fields change; a new name keeps the slug. Posts show the change on their next read. */
    async update(actor: Actor, idOrSlug: string, body: TagUpdateBody): Promise<Tag> {
      checkExplicitSlug(body.slug);
      return contentWrite(database, actor, async ({ trx, workspaceId, changed }) => {
        const current = await requireTag(trx, workspaceId, idOrSlug);
        await checkSeoMedia(trx, dialect, workspaceId, body.seo, current.seo);
        const written = tagColumns.write(body) as TagPatch;
        const patch: TagPatch = { ...written, ...(await tags.renamed(trx, workspaceId, body.slug, current, written)) };
        await repo.update(trx, workspaceId, current.id, patch);
        const tag = await requireTag(trx, workspaceId, current.id);
        changed({ type: 'tag', id: tag.id, slug: tag.slug, action: 'updated' });
        return presentTag(tag);
      });
    },

    /** Detaches the tag from every post, then answers the tag as it was. */
    async remove(actor: Actor, idOrSlug: string): Promise<Tag> {
      return contentWrite(database, actor, async ({ trx, workspaceId, changed }) => {
        const current = await requireTag(trx, workspaceId, idOrSlug);
        // The posts it leaves answer without it, as a detach would leave them: their versions move.
        const posts = await taggedPosts.touchTagged(trx, workspaceId, current.id);
        await repo.delete(trx, workspaceId, current.id);
        changed({ type: 'tag', id: current.id, slug: current.slug, action: 'deleted' });
        for (const post of posts) changed({ type: 'post', id: post.id, slug: post.slug, action: 'updated' });
        return presentTag(current);
      });
    },
  };
}

export type TagsService = ReturnType<typeof createTagsService>;
