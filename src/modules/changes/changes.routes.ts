import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { DatabaseHandle } from '../../db/database.js';
import { forbidden } from '../../errors.js';
import { ErrorResponses } from '../../http/responses.js';
import { readChanges, visibleTypes } from '../../writes/change-feed.js';
import { ChangesPage, ChangesQuery } from './changes.schemas.js';

/**
 * GET /changes: the workspace's content events in commit order (writes/change-feed.ts). No one permission
 * guards it: each event is shown to a key that may read its resource, so a key with posts:read follows the
 * posts. A key that may read none of them is refused before its query is looked at, as a permission is.
 */
export const changesRoutes: FastifyPluginAsyncTypebox<{ database: DatabaseHandle }> = async (app, { database }) => {
  app.get(
    '/changes',
    {
      // Answers differ by the key's permissions, so none is kept in the response cache (keyed by URL).
      config: { cacheable: false },
      preValidation: async (request) => {
        if (visibleTypes(request.actor)?.length === 0)
          throw forbidden("This key's creator may read none of the resources the change feed shows");
      },
      schema: { tags: ['changes'], querystring: ChangesQuery, response: { 200: ChangesPage, ...ErrorResponses } },
    },
    async (request) => {
      // `head` is the content feed's (docs/content-api.md); this answer keeps the shape its clients know.
      const { head: _head, ...page } = await readChanges(database, request.actor, request.query);
      return page;
    },
  );
};
