import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pageRequest } from '../../http/pagination.js';
import { sendList } from '../../http/list-answer.js';
import { postReadForms, ReadQuery } from '../../http/formats.js';
import { ErrorResponses } from '../../http/responses.js';
import { IfMatchHeaders, parseIfMatch } from '../../http/if-match.js';
import { sendSerialized } from '../../http/serialization.js';
import { IdOrSlugParams } from '../../shared/schemas.js';
import type { PostsService } from './posts.service.js';
import type { PostReads } from './read/post-reads.js';
import {
  Post,
  POST_SORT_KEYS,
  PostCreateBody,
  PostList,
  PostListQuery,
  PostUpdateBody,
  TagIdsBody,
} from './posts.schemas.js';

const tags = ['posts'];
const read = { permission: 'posts:read' } as const;
const write = { permission: 'posts:write' } as const;
// Creating and editing drafts: posts:draft is enough (posts.service holds such a writer to drafts).
const draftWrite = { permission: 'posts:write', draft: true } as const;

export const postsRoutes: FastifyPluginAsyncTypebox<{ posts: PostsService; reads: PostReads }> = async (
  app,
  { posts, reads },
) => {
  // Reads answer with stored renders, serialized from these same schemas (read/post-renders.ts).
  app.get(
    '/posts',
    { config: read, schema: { tags, querystring: PostListQuery, response: { 200: PostList, ...ErrorResponses } } },
    async (request, reply) =>
      sendList(
        request,
        reply,
        await reads.list(
          request.actor,
          request.query,
          pageRequest(request.query, POST_SORT_KEYS),
          postReadForms(request, request.query),
        ),
      ),
  );

  app.post(
    '/posts',
    { config: draftWrite, schema: { tags, body: PostCreateBody, response: { 201: Post, ...ErrorResponses } } },
    async (request, reply) => reply.code(201).send(await posts.create(request.actor, request.body)),
  );

  app.get(
    '/posts/:idOrSlug',
    {
      config: read,
      schema: { tags, params: IdOrSlugParams, querystring: ReadQuery, response: { 200: Post, ...ErrorResponses } },
    },
    async (request, reply) =>
      sendSerialized(
        reply,
        await reads.get(request.actor, request.params.idOrSlug, postReadForms(request, request.query)),
      ),
  );

  app.patch(
    '/posts/:idOrSlug',
    {
      config: draftWrite,
      schema: {
        tags,
        params: IdOrSlugParams,
        headers: IfMatchHeaders,
        body: PostUpdateBody,
        response: { 200: Post, ...ErrorResponses },
      },
    },
    (request) =>
      posts.update(request.actor, request.params.idOrSlug, request.body, parseIfMatch(request.headers['if-match'])),
  );

  app.delete(
    '/posts/:idOrSlug',
    { config: write, schema: { tags, params: IdOrSlugParams, response: { 200: Post, ...ErrorResponses } } },
    (request) => posts.remove(request.actor, request.params.idOrSlug),
  );

  app.post(
    '/posts/:idOrSlug/tags',
    {
      config: draftWrite,
      schema: { tags, params: IdOrSlugParams, body: TagIdsBody, response: { 200: Post, ...ErrorResponses } },
    },
    (request) => posts.attachTags(request.actor, request.params.idOrSlug, request.body.tagIds),
  );

  app.delete(
    '/posts/:idOrSlug/tags',
    {
      config: draftWrite,
      schema: { tags, params: IdOrSlugParams, body: TagIdsBody, response: { 200: Post, ...ErrorResponses } },
    },
    (request) => posts.detachTags(request.actor, request.params.idOrSlug, request.body.tagIds),
  );
};
