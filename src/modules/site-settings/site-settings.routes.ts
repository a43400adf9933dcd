import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorResponses } from '../../http/responses.js';
import { FieldsQuery } from '../../http/fields.js';
import { SiteSettings } from './site-settings.schemas.js';
import type { SiteSettingsService } from './site-settings.service.js';

export const siteSettingsRoutes: FastifyPluginAsyncTypebox<{ siteSettings: SiteSettingsService }> = async (
  app,
  { siteSettings },
) => {
  app.get(
    '/site-settings',
    {
      config: { permission: 'site-settings:read' },
      schema: { tags: ['site-settings'], querystring: FieldsQuery, response: { 200: SiteSettings, ...ErrorResponses } },
    },
    (request) => siteSettings.get(request.actor),
  );
};
