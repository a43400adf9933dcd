import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { pageRequest } from '../../http/pagination.js';
import { sendList } from '../../http/list-answer.js';
import { ErrorResponses } from '../../http/responses.js';
import { sendSerialized } from '../../http/serialization.js';
import { IdOrSlugParams, IdParams } from '../../shared/schemas.js';
import type { AuthorsService } from '../authors/authors.service.js';
import type { CategoriesService } from '../categories/categories.service.js';
import type { MediaService } from '../media/media.service.js';
import type { PagesService } from '../pages/pages.service.js';
import type { PageReads } from '../pages/read/page-reads.js';
import type { PostReads } from '../posts/read/post-reads.js';
import type { RedirectsService } from '../redirects/redirects.service.js';
import type { SiteSettingsService } from '../site-settings/site-settings.service.js';
import type { TagsService } from '../tags/tags.service.js';
import { AUTHOR_SORT_KEYS, Author, AuthorList, AuthorListQuery } from '../authors/authors.schemas.js';
import { CATEGORY_SORT_KEYS, Category, CategoryList, CategoryListQuery } from '../categories/categories.schemas.js';
import { PAGE_SORT_KEYS, Page, PageList } from '../pages/pages.schemas.js';
import { POST_SORT_KEYS, Post, PostList } from '../posts/posts.schemas.js';
import { REDIRECT_SORT_KEYS, RedirectList, RedirectListQuery } from '../redirects/redirects.schemas.js';
import { SiteSettings } from '../site-settings/site-settings.schemas.js';
import { TAG_SORT_KEYS, Tag, TagList, TagListQuery } from '../tags/tags.schemas.js';
import {
  ContentItemQuery,
  ContentPageListQuery,
  FeedParams,
  FeedQuery,
  KeyOnlyQuery,
  SitemapParams,
  ContentPostListQuery,
  ContentReadQuery,
  PreviewQuery,
  PublicMedia,
  withKey,
} from './content-api.schemas.js';
import type { PreviewsService } from './previews.service.js';
import type { FeedsService } from '../feeds/feeds.service.js';
import { FEED_TYPES } from '../feeds/feeds.js';
import { SITEMAP_TYPE } from '../feeds/sitemaps.js';
import { notFound } from '../../errors.js';
import { postReadForms, wantsHtml } from '../../http/formats.js';
import { withBodyHtml } from '../pages/read/page-reads.js';

const tags = ['content'];
const item = { schema: { params: IdOrSlugParams, querystring: ContentItemQuery } } as const;

export interface ContentApiRoutesOptions {
  services: {
    postReads: PostReads;
    pages: PagesService;
    pageReads: PageReads;
    authors: AuthorsService;
    tags: TagsService;
    categories: CategoriesService;
    media: MediaService;
    redirects: RedirectsService;
    siteSettings: SiteSettingsService;
  };
  previews: PreviewsService;
  feeds: FeedsService;
  /** This server's public origin: feeds' self links and the sitemap index's locations point back here. */
  publicUrl: string;
}

const FEED_FORMAT = { 'rss.xml': 'rss', 'atom.xml': 'atom', 'feed.json': 'json' } as const;

/** The same URL (its query included) with the last path segment replaced: a feed's sibling formats. */
function sibling(publicUrl: string, url: string, last: string): string {
  const [path = '', query] = url.split('?', 2);
  return `${publicUrl}${path.replace(/[^/]*$/, last)}${query === undefined ? '' : `?${query}`}`;
}

/**
 * The content API's routes (docs/content-api.md): published posts and pages and the public parts of what they
 * embed, through the same services and answers as the admin API, under the scope of server/content.ts. A post or
 * page that is not published is a 404, as if it did not exist; a list holds only published ones. Lists of posts
 * are newest-published first unless asked otherwise.
 */
export const contentApiRoutes: FastifyPluginAsyncTypebox<ContentApiRoutesOptions> = async (
  app,
  { services, previews, feeds, publicUrl },
) => {
  app.get(
    '/feeds/:format',
    {
      config: { permission: 'posts:read', surrogate: { collection: ['post'] } },
      schema: { tags, params: FeedParams, querystring: FeedQuery, response: ErrorResponses },
    },
    async (request, reply) => {
      const { key: _key, ...query } = request.query;
      const format = FEED_FORMAT[request.params.format];
      const links = {
        rss: sibling(publicUrl, request.url, 'rss.xml'),
        atom: sibling(publicUrl, request.url, 'atom.xml'),
        json: sibling(publicUrl, request.url, 'feed.json'),
      };
      const body = await feeds.feed(request.actor, format, query, links);
      return (reply as FastifyReply).type(FEED_TYPES[format]).send(body);
    },
  );

  app.get(
    '/sitemap.xml',
    {
      config: { permission: 'posts:read', surrogate: { collection: ['post', 'page', 'author', 'category'] } },
      schema: { tags, querystring: KeyOnlyQuery, response: ErrorResponses },
    },
    async (request, reply) => {
      const key = encodeURIComponent(request.query.key);
      const base = `${publicUrl}${request.url.split('?', 1)[0]!.replace(/sitemap\.xml$/, 'sitemaps/')}`;
      const body = await feeds.sitemapIndex(request.actor, (name) => `${base}${name}?key=${key}`);
      return (reply as FastifyReply).type(SITEMAP_TYPE).send(body);
    },
  );

  app.get(
    '/sitemaps/:name',
    {
      config: { permission: 'posts:read', surrogate: { collection: ['post', 'page', 'author', 'category'] } },
      schema: { tags, params: SitemapParams, querystring: KeyOnlyQuery, response: ErrorResponses },
    },
    async (request, reply) =>
      (reply as FastifyReply).type(SITEMAP_TYPE).send(await feeds.sitemap(request.actor, request.params.name)),
  );

  app.get(
    '/posts',
    {
      config: { permission: 'posts:read', surrogate: { collection: ['post'] } },
      schema: { tags, querystring: ContentPostListQuery, response: { 200: PostList, ...ErrorResponses } },
    },
    async (request, reply) => {
      const query = { ...request.query, status: 'published' as const };
      const page = pageRequest({ ...query, orderBy: query.orderBy ?? 'publishedAt' }, POST_SORT_KEYS);
      const forms = postReadForms(request, query);
      return sendList(request, reply, await services.postReads.list(request.actor, query, page, forms));
    },
  );

  app.get(
    '/posts/:idOrSlug',
    {
      config: { permission: 'posts:read', surrogate: { item: 'post' } },
      schema: {
        tags,
        params: IdOrSlugParams,
        querystring: ContentReadQuery,
        response: { 200: Post, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const options = { published: true, ...postReadForms(request, request.query) };
      return sendSerialized(reply, await services.postReads.get(request.actor, request.params.idOrSlug, options));
    },
  );

  app.get(
    '/pages',
    {
      config: { permission: 'pages:read', surrogate: { collection: ['page'] } },
      schema: { tags, querystring: ContentPageListQuery, response: { 200: PageList, ...ErrorResponses } },
    },
    async (request, reply) => {
      const query = { ...request.query, status: 'published' as const };
      const answer = await services.pageReads.list(request.actor, query, pageRequest(query, PAGE_SORT_KEYS), {
        html: wantsHtml(query),
      });
      return sendList(request, reply, answer);
    },
  );

  app.get(
    '/pages/:idOrSlug',
    {
      config: { permission: 'pages:read', surrogate: { item: 'page' } },
      schema: {
        tags,
        params: IdOrSlugParams,
        querystring: ContentReadQuery,
        response: { 200: Page, ...ErrorResponses },
      },
    },
    async (request) => {
      const page = await services.pages.get(request.actor, request.params.idOrSlug);
      if (page.status !== 'published') throw notFound('Page');
      return wantsHtml(request.query) ? withBodyHtml(page) : page;
    },
  );

  app.get(
    '/authors',
    {
      config: { permission: 'authors:read', surrogate: { collection: ['author'] } },
      schema: { tags, querystring: withKey(AuthorListQuery), response: { 200: AuthorList, ...ErrorResponses } },
    },
    (request) => services.authors.list(request.actor, request.query, pageRequest(request.query, AUTHOR_SORT_KEYS)),
  );

  app.get(
    '/authors/:idOrSlug',
    {
      config: { permission: 'authors:read', surrogate: { item: 'author' } },
      schema: { tags, ...item.schema, response: { 200: Author, ...ErrorResponses } },
    },
    (request) => services.authors.get(request.actor, request.params.idOrSlug),
  );

  app.get(
    '/tags',
    {
      config: { permission: 'tags:read', surrogate: { collection: ['tag'] } },
      schema: { tags, querystring: withKey(TagListQuery), response: { 200: TagList, ...ErrorResponses } },
    },
    (request) => services.tags.list(request.actor, request.query, pageRequest(request.query, TAG_SORT_KEYS)),
  );

  app.get(
    '/tags/:idOrSlug',
    {
      config: { permission: 'tags:read', surrogate: { item: 'tag' } },
      schema: { tags, ...item.schema, response: { 200: Tag, ...ErrorResponses } },
    },
    (request) => services.tags.get(request.actor, request.params.idOrSlug),
  );

  app.get(
    '/categories',
    {
      config: { permission: 'categories:read', surrogate: { collection: ['category'] } },
      schema: { tags, querystring: withKey(CategoryListQuery), response: { 200: CategoryList, ...ErrorResponses } },
    },
    (request) => services.categories.list(request.actor, request.query, pageRequest(request.query, CATEGORY_SORT_KEYS)),
  );

  app.get(
    '/categories/:idOrSlug',
    {
      config: { permission: 'categories:read', surrogate: { item: 'category' } },
      schema: { tags, ...item.schema, response: { 200: Category, ...ErrorResponses } },
    },
    (request) => services.categories.get(request.actor, request.params.idOrSlug),
  );

  app.get(
    '/media/:id',
    {
      config: { permission: 'media:read', surrogate: { item: 'media' } },
      schema: {
        tags,
        params: IdParams,
        querystring: ContentItemQuery,
        response: { 200: PublicMedia, ...ErrorResponses },
      },
    },
    (request) => services.media.get(request.actor, request.params.id),
  );

  app.get(
    '/redirects',
    {
      config: { permission: 'redirects:read', surrogate: { collection: ['redirect'] } },
      schema: { tags, querystring: withKey(RedirectListQuery), response: { 200: RedirectList, ...ErrorResponses } },
    },
    (request) => services.redirects.list(request.actor, request.query, pageRequest(request.query, REDIRECT_SORT_KEYS)),
  );

  app.get(
    '/site-settings',
    {
      config: { permission: 'site-settings:read', surrogate: { collection: [] } },
      schema: { tags, querystring: ContentItemQuery, response: { 200: SiteSettings, ...ErrorResponses } },
    },
    (request) => services.siteSettings.get(request.actor),
  );

  // Drafts for the site's preview route: one resource, named by a token; never kept by any cache.
  app.get(
    '/preview/posts/:id',
    {
      config: { permission: 'posts:read', noStore: true },
      schema: { tags, params: IdParams, querystring: PreviewQuery, response: { 200: Post, ...ErrorResponses } },
    },
    async (request, reply) => {
      const post = await previews.readPost(request.actor, request.params.id, request.query.token, {
        html: wantsHtml(request.query),
      });
      return Buffer.isBuffer(post) ? sendSerialized(reply, post) : post;
    },
  );

  app.get(
    '/preview/pages/:id',
    {
      config: { permission: 'pages:read', noStore: true },
      schema: { tags, params: IdParams, querystring: PreviewQuery, response: { 200: Page, ...ErrorResponses } },
    },
    async (request) => {
      const page = await previews.readPage(request.actor, request.params.id, request.query.token);
      return wantsHtml(request.query) ? withBodyHtml(page) : page;
    },
  );
};
