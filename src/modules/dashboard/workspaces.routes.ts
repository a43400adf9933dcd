import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorResponses } from '../../http/responses.js';
import type { DashboardServices } from './dashboard.services.js';
import {
  Member,
  MemberAddBody,
  MemberParams,
  MemberPermissionsBody,
  Removed,
  TransferBody,
  WorkspaceNameBody,
  WorkspaceParams,
  WorkspaceSummary,
} from './dashboard.schemas.js';
import { SiteSettings } from '../workspaces/site-settings.js';
import { SiteSettingsPatch } from '../workspaces/site-settings.patch.js';

const tags = ['dashboard'];
const member = { access: 'member' } as const;
const owner = { access: 'owner' } as const;
const manageMembers = { permission: 'members:write' } as const;
const editSettings = { permission: 'site-settings:write' } as const;

/** The signed-in user's workspaces, their site settings and their members. */
export const dashboardWorkspaceRoutes: FastifyPluginAsyncTypebox<{ dashboard: DashboardServices }> = async (
  app,
  { dashboard },
) => {
  const { workspaces, settings, members } = dashboard;
  const params = WorkspaceParams;

  app.get(
    '/workspaces',
    { schema: { tags, response: { 200: Type.Array(WorkspaceSummary), ...ErrorResponses } } },
    (request) => workspaces.list(request.dashboardSession.userId),
  );

  app.post(
    '/workspaces',
    { schema: { tags, body: WorkspaceNameBody, response: { 201: WorkspaceSummary, ...ErrorResponses } } },
    async (request, reply) => {
      const { userId, email } = request.dashboardSession;
      return reply.code(201).send(await workspaces.create({ id: userId, email }, request.body.name));
    },
  );

  app.patch(
    '/workspaces/:workspaceId',
    {
      config: owner,
      schema: { tags, params, body: WorkspaceNameBody, response: { 200: WorkspaceSummary, ...ErrorResponses } },
    },
    (request) => workspaces.rename(request.actor, request.body.name),
  );

  app.get(
    '/workspaces/:workspaceId/settings',
    { config: member, schema: { tags, params, response: { 200: SiteSettings, ...ErrorResponses } } },
    (request) => settings.get(request.actor),
  );

  app.patch(
    '/workspaces/:workspaceId/settings',
    {
      config: editSettings,
      schema: { tags, params, body: SiteSettingsPatch, response: { 200: SiteSettings, ...ErrorResponses } },
    },
    (request) => settings.update(request.actor, request.body),
  );

  app.get(
    '/workspaces/:workspaceId/members',
    { config: member, schema: { tags, params, response: { 200: Type.Array(Member), ...ErrorResponses } } },
    (request) => members.list(request.actor),
  );

  app.post(
    '/workspaces/:workspaceId/members',
    {
      config: manageMembers,
      schema: { tags, params, body: MemberAddBody, response: { 201: Member, ...ErrorResponses } },
    },
    async (request, reply) => reply.code(201).send(await members.add(request.actor, request.body)),
  );

  app.patch(
    '/workspaces/:workspaceId/members/:userId',
    {
      config: manageMembers,
      schema: { tags, params: MemberParams, body: MemberPermissionsBody, response: { 200: Member, ...ErrorResponses } },
    },
    (request) => members.setPermissions(request.actor, request.params.userId, request.body.permissions),
  );

  app.delete(
    '/workspaces/:workspaceId/members/:userId',
    { config: manageMembers, schema: { tags, params: MemberParams, response: { 200: Removed, ...ErrorResponses } } },
    (request) => members.remove(request.actor, request.params.userId),
  );

  app.post(
    '/workspaces/:workspaceId/transfer',
    {
      config: owner,
      schema: { tags, params, body: TransferBody, response: { 200: WorkspaceSummary, ...ErrorResponses } },
    },
    (request) => members.transfer(request.actor, request.body.userId),
  );
};
