import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { ErrorResponses } from '../../http/responses.js';
import { WorkspaceParams } from '../dashboard/dashboard.schemas.js';
import { AuditExportQuery, AuditListQuery, AuditPage } from './audit.schemas.js';
import type { AuditService } from './audit.service.js';

const tags = ['dashboard'];
const readAudit = { permission: 'audit:read' } as const;

/** The audit log's screen and its JSON lines export (docs/team.md, "Audit log"). */
export const auditRoutes: FastifyPluginAsyncTypebox<{ audit: AuditService }> = async (app, { audit }) => {
  app.get(
    '/workspaces/:workspaceId/audit',
    {
      config: readAudit,
      schema: {
        tags,
        params: WorkspaceParams,
        querystring: AuditListQuery,
        response: { 200: AuditPage, ...ErrorResponses },
      },
    },
    (request) => audit.list(request.actor, request.query),
  );

  app.get(
    '/workspaces/:workspaceId/audit/export',
    {
      config: readAudit,
      schema: {
        tags,
        params: WorkspaceParams,
        querystring: AuditExportQuery,
        description: 'Every matching entry, newest first, as JSON lines (one AuditEntry a line).',
        response: {
          200: Type.String({ description: 'application/x-ndjson: one AuditEntry a line, streamed' }),
          ...ErrorResponses,
        },
      },
    },
    async (request, typedReply) => {
      // The typed reply knows only the error envelope; the lines are a stream.
      const reply = typedReply as FastifyReply;
      const lines = audit.exportLines(request.actor, request.query);
      // The first page is read before the answer starts, so a refusal is still an error answer, not a cut stream.
      const first = await lines.next();
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .type('application/x-ndjson; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="audit-${request.params.workspaceId}-${day}.jsonl"`)
        .send(
          Readable.from(
            (async function* () {
              if (!first.done) yield first.value;
              yield* lines;
            })(),
          ),
        );
    },
  );
};
