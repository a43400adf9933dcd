import crypto from 'node:crypto';
import type { DatabaseHandle } from '../../db/database.js';
import { writeTransaction } from '../../db/transaction.js';
import { AppError, conflict, notFound } from '../../errors.js';
import type { Actor } from '../../security/actor.js';
import type { MasterKey } from '../../security/master-key.js';
import { readReviewToken, reviewToken } from '../../security/review-token.js';
import type { Page } from '../pages/pages.schemas.js';
import { pagesRepository } from '../pages/pages.repository.js';
import type { PendingService } from '../pending/pending.service.js';
import type { Post } from '../posts/posts.schemas.js';
import { postsRepository } from '../posts/posts.repository.js';
import { loadSiteSettings } from '../workspaces/site-settings.js';
import { reviewLinksRepository as repo, type ReviewKind, type ReviewLinkRow } from './review-links.repository.js';
import {
  REVIEW_LINK_TTL,
  REVIEW_LINKS_MAX,
  type ReviewLink,
  type ReviewLinkCreateBody,
  type ReviewLinkList,
} from './review-links.schemas.js';

/** What the public page shows of a link that reads: the post or page as Update would leave it, and until when. */
export interface ReviewOpening {
  kind: ReviewKind;
  resource: Post | Page;
  /** What it shows: its pending changes applied, the resource as it is, or that as its set cannot apply now. */
  pending: 'pending' | 'none' | 'refused';
  expiresAt: string;
  /** The site's URL (its settings), which site-relative links of the body point into; null when it has none. */
  siteUrl: string | null;
}

const LABELS = { post: 'Post', page: 'Page' } as const;

/** How long an expired link stays in its list (saying it expired) before a new link of its resource prunes it. */
const EXPIRED_KEPT_MS = 30 * 24 * 3600 * 1000;

/**
 * Review links (docs/publishing.md, "Review links"): stored rows a signed token names, made, listed and withdrawn
 * by whoever may write the post or page, and opened by anyone who has the link, without an account.
 */
export function createReviewLinksService(
  database: DatabaseHandle,
  masterKey: MasterKey,
  publicUrl: string,
  content: { pending: PendingService },
  now: () => number = Date.now,
) {
  const { db } = database;

  function present(row: ReviewLinkRow): ReviewLink {
    return {
      id: row.id,
      resourceType: row.resource_type,
      resourceId: row.resource_id,
      note: row.note,
      url: `${publicUrl}/review/${reviewToken(masterKey, row.id)}`,
      expiresAt: row.expires_at,
      expired: Date.parse(row.expires_at) <= now(),
      createdAt: row.created_at,
      createdBy: { userId: row.created_by_user_id, apiKeyId: row.created_by_api_key_id },
      openedCount: Number(row.opened_count),
      lastOpenedAt: row.last_opened_at,
    };
  }

  /** The live post or page `idOrSlug` names in the actor's workspace, held against writes when `lock` is given. */
  async function resourceId(actor: Actor, kind: ReviewKind, idOrSlug: string, executor = db, locked = false) {
    const lock = locked ? ({ dialect: database.dialect, strength: 'noKeyUpdate' } as const) : undefined;
    const row =
      kind === 'post'
        ? await postsRepository.findByIdOrSlug(executor, actor.workspaceId, idOrSlug, lock)
        : await pagesRepository.findByIdOrSlug(executor, actor.workspaceId, idOrSlug, lock);
    if (!row) throw notFound(LABELS[kind]);
    return row.id;
  }

  /** Who reads through a link: no one, in the link's workspace (outlook reads by the workspace alone). */
  const reader = (workspaceId: string): Actor => ({
    workspaceId,
    userId: '',
    apiKeyId: null,
    isOwner: false,
    permissions: new Set(),
    contentVersion: 0,
  });

  return {
    async create(actor: Actor, kind: ReviewKind, idOrSlug: string, body: ReviewLinkCreateBody): Promise<ReviewLink> {
      const seconds = body.expiresInSeconds ?? REVIEW_LINK_TTL.default;
      const note = body.note?.trim() || null;
      return writeTransaction(database, async (trx) => {
        // Counted with the post or page held, so two links made at once cannot both take the last place.
        const id = await resourceId(actor, kind, idOrSlug, trx, true);
        const at = now();
        await repo.pruneExpired(trx, actor.workspaceId, kind, id, new Date(at - EXPIRED_KEPT_MS).toISOString());
        const count = await repo.countLive(trx, actor.workspaceId, kind, id, new Date(at).toISOString());
        if (count >= REVIEW_LINKS_MAX)
          throw conflict(
            `This ${kind} has ${count} review links that have not expired, the most it may have; withdraw one ` +
              'before making another',
            { reason: 'review_links_max', max: REVIEW_LINKS_MAX },
          );
        const row: ReviewLinkRow = {
          id: crypto.randomUUID(),
          workspace_id: actor.workspaceId,
          resource_type: kind,
          resource_id: id,
          note,
          created_by_user_id: actor.userId || null,
          created_by_api_key_id: actor.apiKeyId,
          created_at: new Date(at).toISOString(),
          expires_at: new Date(at + seconds * 1000).toISOString(),
          opened_count: 0,
          last_opened_at: null,
        };
        await repo.insert(trx, actor.workspaceId, row);
        return present(row);
      });
    },

    async list(actor: Actor, kind: ReviewKind, idOrSlug: string): Promise<ReviewLinkList> {
      const id = await resourceId(actor, kind, idOrSlug);
      const rows = await repo.list(db, actor.workspaceId, kind, id, REVIEW_LINKS_MAX);
      return { data: rows.map(present) };
    },

    /** Withdraws the link by deleting it; the answer is the link as it was. */
    async revoke(actor: Actor, kind: ReviewKind, idOrSlug: string, linkId: string): Promise<ReviewLink> {
      const id = await resourceId(actor, kind, idOrSlug);
      return writeTransaction(database, async (trx) => {
        const row = await repo.find(trx, actor.workspaceId, kind, id, linkId);
        if (!row || !(await repo.remove(trx, actor.workspaceId, kind, id, linkId))) throw notFound('Review link');
        return present(row);
      });
    },

    /**
     * What `token` lets its holder read now, counted as one opening; null for every way it cannot (malformed,
     * forged, expired, withdrawn, its post or page deleted), alike.
     * `count: false` reads without counting (a HEAD).
     */
    async open(token: string, { count = true } = {}): Promise<ReviewOpening | null> {
      const id = readReviewToken(masterKey, token);
      if (id === null) return null;
      const link = await repo.findSigned(db, id);
      if (!link || Date.parse(link.expires_at) <= now()) return null;
      let view: Awaited<ReturnType<PendingService['view']>>;
      try {
        view = await content.pending.view(reader(link.workspace_id), link.resource_type, link.resource_id, {
          refused: 'live',
        });
      } catch (error) {
        if (error instanceof AppError && error.status < 500) return null;
        throw error;
      }
      const settings = await loadSiteSettings(db, link.workspace_id);
      if (count) await repo.recordOpen(db, link.workspace_id, link.id, new Date(now()).toISOString());
      return {
        kind: link.resource_type,
        resource: view.resource,
        pending: view.pending,
        expiresAt: link.expires_at,
        siteUrl: settings.siteUrl,
      };
    },
  };
}

export type ReviewLinksService = ReturnType<typeof createReviewLinksService>;
