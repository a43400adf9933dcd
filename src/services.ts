import { CONTENT_KINDS } from './content-kinds.js';
import type { DatabaseHandle } from './db/database.js';
import { createAccountsService } from './modules/accounts/accounts.service.js';
import { createApiKeysService } from './modules/api-keys/api-keys.service.js';
import { createDashboardServices } from './modules/dashboard/dashboard.services.js';
import { createAuthorsService } from './modules/authors/authors.service.js';
import { createCategoriesService } from './modules/categories/categories.service.js';
import { createTagsService } from './modules/tags/tags.service.js';
import { pagesRepository } from './modules/pages/pages.repository.js';
import { createPagesService } from './modules/pages/pages.service.js';
import { createPageReads } from './modules/pages/read/page-reads.js';
import { rescorePosts } from './modules/posts/posts.scores.js';
import { createPostsService } from './modules/posts/posts.service.js';
import { touchTaggedPosts } from './modules/posts/posts.tagged.js';
import { createPostReads } from './modules/posts/read/post-reads.js';
import { createLinkHealthService } from './modules/link-health/link-health.service.js';
import { createRedirectsService } from './modules/redirects/redirects.service.js';
import { createRevisionsService } from './modules/revisions/revisions.service.js';
import { createMediaService } from './modules/media/media.service.js';
import { createSiteSettingsService } from './modules/site-settings/site-settings.service.js';
import type { Config } from './config.js';
import { createMediaStorage } from './modules/media/storage/storage.js';
import type { MasterKey } from './security/master-key.js';
import { createContentKeysService } from './modules/content-keys/content-keys.service.js';
import { createPreviewsService } from './modules/content-api/previews.service.js';
import { createPendingService } from './modules/pending/pending.service.js';
import { createReviewLinksService } from './modules/review-links/review-links.service.js';
import { createFeedsService } from './modules/feeds/feeds.service.js';
import { createWebhooksService } from './modules/webhooks/webhooks.service.js';
import { createPasswords } from './security/password.js';
import { createMailer } from './mail/mailer.js';
import { createReviewsService } from './modules/reviews/reviews.service.js';
import { createTeamServices } from './modules/team/team.services.js';
import { installContentKinds } from './writes/kinds.js';

/**
 * Every service, built once per process; the HTTP routes and the CLI call the same ones. Each takes what it needs
 * of the configuration here, so the server and the commands cannot build them differently. The write path gets
 * every content kind here too (src/content-kinds.ts), so whatever can write content has them.
 */
export function createServices(database: DatabaseHandle, masterKey: MasterKey, config: Config) {
  installContentKinds(CONTENT_KINDS);
  const { publicUrl } = config;
  const passwords = createPasswords(config.passwordCost);
  const accounts = createAccountsService(database, passwords);
  const posts = createPostsService(database, publicUrl);
  const pages = createPagesService(database, publicUrl);
  const postReads = createPostReads(database, publicUrl);
  const authors = createAuthorsService(database, publicUrl);
  const categories = createCategoriesService(database);
  const pending = createPendingService(database, { posts, pages, postReads });
  const mailer = createMailer(config.mail);
  const dashboard = createDashboardServices(database, accounts, passwords, masterKey, { oidc: config.oidc, publicUrl });
  const tags = createTagsService(database, {
    touchTagged: (trx, workspaceId, tagId) => touchTaggedPosts(trx, database.dialect, workspaceId, tagId),
  });
  return {
    media: createMediaService(database, publicUrl, createMediaStorage(config), {
      keepGps: config.mediaKeepGps,
      users: {
        rescorePosts,
        touchPage: async (trx, workspaceId, page, now) =>
          void (await pagesRepository.update(trx, workspaceId, page, {}, now)),
      },
    }),
    accounts,
    apiKeys: createApiKeysService(database, masterKey),
    authors,
    categories,
    tags,
    posts,
    postReads,
    contentKeys: createContentKeysService(database, masterKey),
    pending,
    previews: createPreviewsService(database, masterKey, { pages, postReads, pending }),
    reviewLinks: createReviewLinksService(database, masterKey, publicUrl, { pending }),
    feeds: createFeedsService(database, publicUrl, { postReads, categories, tags, authors }),
    redirects: createRedirectsService(database),
    linkHealth: createLinkHealthService(database),
    pages,
    revisions: createRevisionsService(database, { posts, pages }),
    pageReads: createPageReads(database, publicUrl),
    siteSettings: createSiteSettingsService(database, publicUrl),
    webhooks: createWebhooksService(database, masterKey, {
      allowPrivate: config.webhookAllowPrivate,
      endpointsMax: config.webhookEndpointsMax,
    }),
    dashboard,
    reviews: createReviewsService(database, { posts, pages, mailer, publicUrl }),
    team: createTeamServices(database, {
      mailer,
      publicUrl,
      passwords,
      sessions: dashboard.sessions,
    }),
  };
}

export type Services = ReturnType<typeof createServices>;
