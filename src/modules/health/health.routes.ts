import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Redis } from 'ioredis';
import { sql } from 'kysely';
import { Type, type Static } from 'typebox';
import type { DatabaseHandle } from '../../db/database.js';

const Check = Type.Object({
  status: Type.Union([Type.Literal('up'), Type.Literal('down')]),
  /** Why it is down, in a few words (the driver's reason); absent while up. */
  reason: Type.Optional(Type.String()),
});

const Checks = Type.Object({
  database: Check,
  /** Present when REDIS_URL is set. While it is down the rate limit counts in each instance, and nothing fails. */
  redis: Type.Optional(Check),
});

const Status = Type.Object({ status: Type.String(), checks: Type.Optional(Checks) });

type CheckResult = Static<typeof Check>;

/** A database that does not answer within this is reported down: a health check must answer promptly itself. */
const DATABASE_CHECK_MS = 2_000;

async function checkDatabase(database: DatabaseHandle): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${DATABASE_CHECK_MS} ms`)), DATABASE_CHECK_MS);
  });
  try {
    await Promise.race([sql`select 1`.execute(database.db), timeout]);
    return { status: 'up' };
  } catch (error) {
    return { status: 'down', reason: database.dialect.unavailable(error) ?? (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

/** ioredis's own view of its connection: no command is sent, so a dead Redis costs the check nothing. */
function checkRedis(redis: Redis): CheckResult {
  return redis.status === 'ready' ? { status: 'up' } : { status: 'down', reason: redis.status };
}

async function checks(database: DatabaseHandle, redis: Redis | null): Promise<Static<typeof Checks>> {
  const result: Static<typeof Checks> = { database: await checkDatabase(database) };
  if (redis) result.redis = checkRedis(redis);
  return result;
}

/**
 * Liveness and readiness. /healthz is 200 while the process runs (a load balancer or supervisor must not restart
 * an instance because its database is away: a new one would find it away too) and says what is down; /readyz is
 * 503 while the database does not answer, so that traffic goes to instances that can serve it.
 */
export const healthRoutes: FastifyPluginAsyncTypebox<{ database: DatabaseHandle; redis: Redis | null }> = async (
  app,
  { database, redis },
) => {
  app.get('/healthz', { schema: { response: { 200: Status } } }, async () => ({
    status: 'ok',
    checks: await checks(database, redis),
  }));

  app.get('/readyz', { schema: { response: { 200: Status, 503: Status } } }, async (_request, reply) => {
    const result = await checks(database, redis);
    if (result.database.status === 'up') return { status: 'ready', checks: result };
    return reply.code(503).send({ status: 'unavailable', checks: result });
  });
};
