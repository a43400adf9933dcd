import type { DatabaseHandle } from '../../db/database.js';
import { AppError, notFound } from '../../errors.js';
import type { Actor } from '../../security/actor.js';
import type { MasterKey } from '../../security/master-key.js';
import { issuePreviewToken, readPreviewToken, type PreviewKind } from '../../security/preview-token.js';
import { loadSiteSettings } from '../workspaces/site-settings.js';
import type { Page } from '../pages/pages.schemas.js';
import type { PagesService } from '../pages/pages.service.js';
import type { PostReads, PostJson } from '../posts/read/post-reads.js';
import { postsRepository } from '../posts/posts.repository.js';
import type { Post } from '../posts/posts.schemas.js';
import type { PendingService } from '../pending/pending.service.js';
import { renderBlocks } from '@quire/blocks';

export const PREVIEW_TTL = { default: 3600, min: 60, max: 7 * 24 * 3600 } as const;

export interface Preview {
  token: string;
  expiresAt: string;
  /** The site's preview route with the token, from the site settings' preview URL pattern; null without one. */
  url: string | null;
}

/** Every way a token can fail reads the same: nothing tells a guess from an expired or foreign token. */
const noPreview = () => notFound('Preview');

/**
 * A resource deleted since its token was made answers as a bad token does; any other failure (the database away:
 * a 503) stays what it is.
 */
function asNoPreview(error: unknown): never {
  throw error instanceof AppError && error.code === 'NOT_FOUND' ? noPreview() : error;
}

/**
 * Previews on the site (docs/content-api.md, "Previews"): a short-lived signed token for one post or page, made
 * by whoever may read it, and read back by the content API for that one resource, whatever its status.
 */
export function createPreviewsService(
  database: DatabaseHandle,
  masterKey: MasterKey,
  content: { pages: PagesService; postReads: PostReads; pending: PendingService },
  now: () => number = Date.now,
) {
  const nowSeconds = () => Math.floor(now() / 1000);

  function claimsFor(actor: Actor, kind: PreviewKind, id: string, token: string) {
    const claims = readPreviewToken(masterKey, token, nowSeconds());
    if (!claims || claims.workspaceId !== actor.workspaceId || claims.kind !== kind || claims.id !== id)
      throw noPreview();
    return claims;
  }

  return {
    async create(
      actor: Actor,
      kind: PreviewKind,
      idOrSlug: string,
      expiresInSeconds: number = PREVIEW_TTL.default,
      { pending = false } = {},
    ): Promise<Preview> {
      const resource =
        kind === 'post'
          ? await postsRepository.findByIdOrSlug(database.db, actor.workspaceId, idOrSlug)
          : await content.pages.get(actor, idOrSlug);
      if (!resource) throw notFound(kind === 'post' ? 'Post' : 'Page');
      const expiresAt = nowSeconds() + expiresInSeconds;
      const token = issuePreviewToken(masterKey, {
        workspaceId: actor.workspaceId,
        kind,
        id: resource.id,
        expiresAt,
        ...(pending ? { pending } : {}),
      });
      const settings = await loadSiteSettings(database.db, actor.workspaceId);
      return {
        token,
        expiresAt: new Date(expiresAt * 1000).toISOString(),
        url: previewUrl(settings, kind, resource, token),
      };
    },

    /** The post as it is, or, when the token carries them, as its pending changes will leave it. */
    async readPost(actor: Actor, id: string, token: string, { html = false } = {}): Promise<PostJson | Post> {
      if (!claimsFor(actor, 'post', id, token).pending)
        return content.postReads.get(actor, id, { html }).catch(asNoPreview);
      const post = (await content.pending.outlook(actor, 'post', id).catch(asNoPreview)) as Post;
      return html ? { ...post, bodyHtml: renderBlocks(post.bodyJson) } : post;
    },

    async readPage(actor: Actor, id: string, token: string): Promise<Page> {
      if (!claimsFor(actor, 'page', id, token).pending) return content.pages.get(actor, id).catch(asNoPreview);
      return (await content.pending.outlook(actor, 'page', id).catch(asNoPreview)) as Page;
    },
  };
}

export type PreviewsService = ReturnType<typeof createPreviewsService>;

/** The preview URL pattern filled in: `{token}`, `{type}` (post or page), `{id}` and `{slug}`, each URL-encoded. */
function previewUrl(
  settings: { siteUrl: string | null; previewUrlPattern: string | null },
  kind: PreviewKind,
  resource: { id: string; slug: string },
  token: string,
): string | null {
  const pattern = settings.previewUrlPattern;
  if (!pattern) return null;
  const filled = pattern
    .replaceAll('{token}', encodeURIComponent(token))
    .replaceAll('{type}', kind)
    .replaceAll('{id}', encodeURIComponent(resource.id))
    .replaceAll('{slug}', encodeURIComponent(resource.slug));
  try {
    if (!pattern.startsWith('/')) return new URL(filled).toString();
    if (!settings.siteUrl) return null;
    return new URL(filled, settings.siteUrl.endsWith('/') ? settings.siteUrl : `${settings.siteUrl}/`).toString();
  } catch {
    return null;
  }
}
