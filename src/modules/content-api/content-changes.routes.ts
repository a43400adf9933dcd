import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { DatabaseHandle } from '../../db/database.js';
import { ErrorResponses } from '../../http/responses.js';
import { readChanges } from '../../writes/change-feed.js';
import { ContentChangesPage, ContentChangesQuery } from './content-api.schemas.js';

/**
 * GET /changes on the content API (docs/content-api.md, "Change feed"): what changed since a site's last build,
 * through the admin feed's reader (writes/change-feed.ts) in its published view, since a content key ships in
 * public pages and must not tell of drafts. Never kept by any cache: the answer moves with every write and
 * names no resource a purge could reach, so a shared cache would answer a reader an old page.
 */
export const contentChangesRoutes: FastifyPluginAsyncTypebox<{ database: DatabaseHandle }> = async (
  app,
  { database },
) => {
  app.get(
    '/changes',
    {
      config: { noStore: true },
      schema: {
        tags: ['content'],
        querystring: ContentChangesQuery,
        response: { 200: ContentChangesPage, ...ErrorResponses },
      },
    },
    (request) => readChanges(database, request.actor, request.query, { published: true }),
  );
};
