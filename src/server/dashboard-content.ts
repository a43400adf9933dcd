import type { FastifyInstance, RouteOptions } from 'fastify';
import { Type, type TObject } from 'typebox';
import { selectFields } from '../http/fields.js';
import { Uuid } from '../shared/schemas.js';
import type { Services } from '../services.js';
import { authorsRoutes } from '../modules/authors/authors.routes.js';
import { categoriesRoutes } from '../modules/categories/categories.routes.js';
import { linkHealthRoutes } from '../modules/link-health/link-health.routes.js';
import { mediaRoutes } from '../modules/media/media.routes.js';
import { pagesRoutes } from '../modules/pages/pages.routes.js';
import { postsRoutes } from '../modules/posts/posts.routes.js';
import { redirectsRoutes } from '../modules/redirects/redirects.routes.js';
import { revisionsRoutes } from '../modules/revisions/revisions.routes.js';
import { tagsRoutes } from '../modules/tags/tags.routes.js';
import { webhooksRoutes } from '../modules/webhooks/webhooks.routes.js';
import { contentKeysRoutes } from '../modules/content-keys/content-keys.routes.js';
import { previewsRoutes } from '../modules/content-api/previews.routes.js';
import { pendingRoutes } from '../modules/pending/pending.routes.js';
import { reviewLinksRoutes } from '../modules/review-links/review-links.routes.js';

export interface DashboardContentOptions {
  services: Services;
  maxUploadBytes: number;
}

/** The mount's own path parameter, added to each mounted route's params schema. */
function withWorkspaceParam(route: RouteOptions): void {
  const params = route.schema?.params as TObject | undefined;
  route.schema = {
    ...route.schema,
    params: Type.Object({ workspaceId: Uuid, ...params?.properties }, { additionalProperties: false }),
  };
}

/**
 * The content of a workspace the signed-in user belongs to: the external API's own resource routes (reads and
 * writes: the same schemas, services, permissions and answers), mounted under `/workspaces/:workspaceId`. The
 * dashboard scope's hooks decide the actor from the session and the membership instead of a key, so the editor
 * and the library write through exactly the paths a site's key does, and a route the API gains is here too.
 */
export async function dashboardContentRoutes(app: FastifyInstance, options: DashboardContentOptions): Promise<void> {
  const { services } = options;
  await app.register(
    async (mount) => {
      mount.addHook('onRoute', withWorkspaceParam);
      // The routes declare `?fields=`; the hooks that apply it are the scope's, so the mount brings its own.
      selectFields(mount);
      await mount.register(authorsRoutes, { authors: services.authors });
      await mount.register(categoriesRoutes, { categories: services.categories });
      await mount.register(tagsRoutes, { tags: services.tags });
      await mount.register(postsRoutes, { posts: services.posts, reads: services.postReads });
      await mount.register(redirectsRoutes, { redirects: services.redirects });
      await mount.register(linkHealthRoutes, { linkHealth: services.linkHealth });
      await mount.register(pagesRoutes, { pages: services.pages, reads: services.pageReads });
      await mount.register(revisionsRoutes, { revisions: services.revisions });
      await mount.register(pendingRoutes, { pending: services.pending });
      await mount.register(reviewLinksRoutes, { reviewLinks: services.reviewLinks });
      await mount.register(mediaRoutes, { media: services.media, maxUploadBytes: options.maxUploadBytes });
      await mount.register(webhooksRoutes, { webhooks: services.webhooks });
      await mount.register(contentKeysRoutes, { contentKeys: services.contentKeys });
      await mount.register(previewsRoutes, { previews: services.previews });
    },
    { prefix: '/workspaces/:workspaceId' },
  );
}
