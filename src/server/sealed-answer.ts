import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** A write's answer as its content write serialized it before committing (contentWrite's seal). */
    sealedAnswer?: { answer: unknown; json: string };
  }
}

/** The status a route answers a successful write with: 201 when it creates, else 200. */
function successStatus(request: FastifyRequest): string | undefined {
  const responses = (request.routeOptions.schema?.response ?? {}) as Record<string, unknown>;
  return ['201', '200'].find((status) => status in responses);
}

/**
 * Serializes a write's answer inside its transaction (contentWrite calls the actor's seal), with the route's
 * own serializer, and sends those bytes: a 500 while writing the answer out then rolls the write back, and
 * the answer is serialized once. Registered in scopes whose routes have an actor (the external API, the
 * dashboard's workspace routes).
 */
export function sealWriteAnswers(scope: FastifyInstance): void {
  scope.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method === 'GET' || request.method === 'HEAD' || !request.actor) return;
    const status = successStatus(request);
    const serialize = status === undefined ? undefined : reply.getSerializationFunction(status);
    if (!serialize) return;
    request.actor.seal = (answer) => {
      request.sealedAnswer = { answer, json: serialize(answer as Record<string, unknown>) };
    };
  });
  scope.addHook('preSerialization', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const sealed = request.sealedAnswer;
    if (sealed && sealed.answer === payload) reply.serializer(() => sealed.json);
    return payload;
  });
}
