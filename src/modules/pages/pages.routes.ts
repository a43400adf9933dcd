import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pageRequest } from '../../http/pagination.js';
import { sendList } from '../../http/list-answer.js';
import { ReadQuery, wantsHtml } from '../../http/formats.js';
import { ErrorResponses } from '../../http/responses.js';
import { IfMatchHeaders, parseIfMatch } from '../../http/if-match.js';
import { IdOrSlugParams } from '../../shared/schemas.js';
import type { PagesService } from './pages.service.js';
import { withBodyHtml, type PageReads } from './read/page-reads.js';
import { Page, PAGE_SORT_KEYS, PageCreateBody, PageList, PageListQuery, PageUpdateBody } from './pages.schemas.js';

const tags = ['pages'];
const read = { permission: 'pages:read' } as const;
const write = { permission: 'pages:write' } as const;
// Creating and editing drafts: pages:draft is enough (pages.service holds such a writer to drafts).
const draftWrite = { permission: 'pages:write', draft: true } as const;

export const pagesRoutes: FastifyPluginAsyncTypebox<{ pages: PagesService; reads: PageReads }> = async (
  app,
  { pages, reads },
) => {
  app.get(
    '/pages',
    { config: read, schema: { tags, querystring: PageListQuery, response: { 200: PageList, ...ErrorResponses } } },
    async (request, reply) =>
      sendList(
        request,
        reply,
        await reads.list(request.actor, request.query, pageRequest(request.query, PAGE_SORT_KEYS), {
          html: wantsHtml(request.query),
        }),
      ),
  );

  app.post(
    '/pages',
    { config: draftWrite, schema: { tags, body: PageCreateBody, response: { 201: Page, ...ErrorResponses } } },
    async (request, reply) => reply.code(201).send(await pages.create(request.actor, request.body)),
  );

  app.get(
    '/pages/:idOrSlug',
    {
      config: read,
      schema: { tags, params: IdOrSlugParams, querystring: ReadQuery, response: { 200: Page, ...ErrorResponses } },
    },
    async (request) => {
      const page = await pages.get(request.actor, request.params.idOrSlug);
      return wantsHtml(request.query) ? withBodyHtml(page) : page;
    },
  );

  app.patch(
    '/pages/:idOrSlug',
    {
      config: draftWrite,
      schema: {
        tags,
        params: IdOrSlugParams,
        headers: IfMatchHeaders,
        body: PageUpdateBody,
        response: { 200: Page, ...ErrorResponses },
      },
    },
    (request) =>
      pages.update(request.actor, request.params.idOrSlug, request.body, parseIfMatch(request.headers['if-match'])),
  );

  app.delete(
    '/pages/:idOrSlug',
    { config: write, schema: { tags, params: IdOrSlugParams, response: { 200: Page, ...ErrorResponses } } },
    (request) => pages.remove(request.actor, request.params.idOrSlug),
  );
};
