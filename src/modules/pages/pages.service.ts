import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { StoredBlock } from '@quire/blocks';
import { deriveBody } from '../../blocks/derive.js';
import { checkSeoMedia, imageReferenceIssues } from '../../blocks/image-references.js';
import type { DatabaseHandle } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { invalid } from '../../errors.js';
import { searchWords } from '../../shared/search-words.js';
import { nowIso } from '../../shared/time.js';
import { statusAction } from '../../writes/changes.js';
import { contentWrite } from '../../writes/content-write.js';
import { checkDraftWrite, type Actor } from '../../security/actor.js';
import { contentResource, firstPublishedAt } from '../content/content-resource.js';
import { pageColumns } from './pages.columns.js';
import { presentPages } from './pages.embeds.js';
import type { VersionCondition } from '../../writes/versions.js';
import { checkPageNotScheduled } from './pages.rules.js';
import { pagesRepository as repo, type PagePatch, type PageRow } from './pages.repository.js';
import { Page, type PageCreateBody, type PageUpdateBody } from './pages.schemas.js';
import { compileSerializer } from '../../http/serialization.js';

type Executor = Kysely<Database>;

/** The columns the column map writes on create: all of a page's but those the service computes. */
type NewPageColumns = Omit<
  PageRow,
  | 'id'
  | 'workspace_id'
  | 'slug'
  | 'body_json'
  | 'body_text'
  | 'search_head'
  | 'search_text'
  | 'deleted_at'
  | 'created_at'
  | 'updated_at'
>;

export function createPagesService(database: DatabaseHandle, publicUrl: string) {
  const { db, dialect } = database;
  async function presentOne(executor: Executor, workspaceId: string, row: PageRow): Promise<Page> {
    return (await presentPages(executor, workspaceId, [row], publicUrl))[0]!;
  }
  // As a GET serializes the page (the route's own schema), for the ETag an If-Match may name.
  const pages = contentResource(database, {
    type: 'page',
    columns: pageColumns,
    label: 'Page',
    repo,
    present: presentOne,
    serialize: compileSerializer<Page>(Page),
  });

  return {
    async get(actor: Actor, idOrSlug: string): Promise<Page> {
      return presentOne(db, actor.workspaceId, await pages.require(db, actor.workspaceId, idOrSlug));
    },

    async create(actor: Actor, body: PageCreateBody): Promise<Page> {
      checkDraftWrite(actor, 'pages', null, body.status);
      checkPageNotScheduled(body, null, Date.now());
      return contentWrite(database, actor, async ({ trx, workspaceId, changed }) => {
        const issues = await imageReferenceIssues(trx, dialect, workspaceId, '/bodyJson', body.bodyJson, []);
        if (issues.length > 0) throw invalid(issues);
        await checkSeoMedia(trx, dialect, workspaceId, body.seo);
        const now = nowIso();
        const id = crypto.randomUUID();
        const columns = pageColumns.write(body, { create: true }) as NewPageColumns;
        const derived = deriveBody(body.bodyJson ?? []);
        await repo.insert(trx, workspaceId, {
          ...columns,
          id,
          slug: await pages.claimSlug(trx, workspaceId, body.slug, columns.title),
          body_json: JSON.stringify(derived.blocks),
          body_text: derived.bodyText,
          search_head: searchWords(columns.title),
          search_text: searchWords(derived.bodyText),
          published_at: firstPublishedAt(columns, now),
          deleted_at: null,
          created_at: now,
          updated_at: now,
        });
        const page = await pages.require(trx, workspaceId, id);
        changed({ type: 'page', id, slug: page.slug, action: 'created', status: page.status });
        return presentOne(trx, workspaceId, page);
      });
    },

    /** `ifVersion` (from `If-Match`) refuses the write with a 409 when the page moved past that version. */
    async update(actor: Actor, idOrSlug: string, body: PageUpdateBody, ifVersion?: VersionCondition): Promise<Page> {
      return contentWrite(database, actor, async ({ trx, workspaceId, changed }) => {
        const current = await pages.require(trx, workspaceId, idOrSlug, 'noKeyUpdate');
        checkDraftWrite(actor, 'pages', current.status, body.status);
        checkPageNotScheduled(body, current, Date.now());
        const issues = await imageReferenceIssues(
          trx,
          dialect,
          workspaceId,
          '/bodyJson',
          body.bodyJson,
          JSON.parse(current.body_json) as StoredBlock[],
        );
        if (issues.length > 0) throw invalid(issues);
        await checkSeoMedia(trx, dialect, workspaceId, body.seo, current.seo);
        await pages.checkIfMatch(trx, workspaceId, current, ifVersion);
        const now = nowIso();
        const patch = (await pages.patch(trx, workspaceId, body, current)) as PagePatch;
        if (body.bodyJson !== undefined) {
          const derived = deriveBody(body.bodyJson);
          patch.body_json = JSON.stringify(derived.blocks);
          patch.body_text = derived.bodyText;
        }
        // Moving to published stamps publishedAt when it is empty (and the request did not set it).
        if (body.publishedAt === undefined && body.status === 'published' && current.published_at === null)
          patch.published_at = now;
        if (patch.title !== undefined && patch.title !== current.title) patch.search_head = searchWords(patch.title);
        if (patch.body_text !== undefined && patch.body_text !== current.body_text)
          patch.search_text = searchWords(patch.body_text);
        await repo.update(trx, workspaceId, current, patch, now);
        const page = await pages.require(trx, workspaceId, current.id);
        changed({ type: 'page', id: page.id, slug: page.slug, action: statusAction(current.status, page.status) });
        return presentOne(trx, workspaceId, page);
      });
    },

    /** Soft delete: the slug is freed, and the answer is the page as it was, with deletedAt set. */
    remove: (actor: Actor, idOrSlug: string): Promise<Page> => pages.remove(actor, idOrSlug),
  };
}

export type PagesService = ReturnType<typeof createPagesService>;
