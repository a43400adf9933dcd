import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { Db } from '../../db/database.js';

const Status = Type.Object({ status: Type.String() });

export const healthRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.get('/healthz', { schema: { response: { 200: Status } } }, async () => ({ status: 'ok' }));

  // Ready means the database answers; a load balancer stops sending traffic when it does not.
  app.get('/readyz', { schema: { response: { 200: Status, 503: Status } } }, async (_request, reply) => {
    try {
      await sql`select 1`.execute(db);
      return { status: 'ready' };
    } catch {
      return reply.code(503).send({ status: 'unavailable' });
    }
  });
};
