import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pageRequest } from '../../http/pagination.js';
import { ErrorResponses } from '../../http/responses.js';
import type { LinkHealthService } from './link-health.service.js';
import {
  LINK_HEALTH_SORT_KEYS,
  LinkHealth,
  LinkHealthList,
  LinkHealthListQuery,
  LinkHealthReportBody,
} from './link-health.schemas.js';

const tags = ['link-health'];

export const linkHealthRoutes: FastifyPluginAsyncTypebox<{ linkHealth: LinkHealthService }> = async (
  app,
  { linkHealth },
) => {
  app.get(
    '/link-health',
    {
      config: { permission: 'link-health:read', /* reports change it without a content write */ cacheable: false },
      schema: { tags, querystring: LinkHealthListQuery, response: { 200: LinkHealthList, ...ErrorResponses } },
    },
    (request) => linkHealth.list(request.actor, request.query, pageRequest(request.query, LINK_HEALTH_SORT_KEYS)),
  );

  // 200, not 201: a report updates the record of its path as often as it creates one (contract §4).
  app.post(
    '/link-health',
    {
      config: { permission: 'link-health:write' },
      schema: { tags, body: LinkHealthReportBody, response: { 200: LinkHealth, ...ErrorResponses } },
    },
    (request) => linkHealth.report(request.actor, request.body),
  );
};
