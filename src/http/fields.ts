import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { invalid } from '../errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The top-level fields `?fields=` asked for (with `id`), once checked against the route's answer. */
    selectedFields?: ReadonlySet<string>;
    /** Set when the answer was cut to the selection on its way out already (http/list-answer.ts). */
    fieldsApplied?: boolean;
  }
}

/** `?fields=id,slug,title`: which top-level fields of the answer (of each item of a list) to send. */
export const Fields = Type.Optional(
  Type.String({
    pattern: '^[A-Za-z][A-Za-z0-9]*(,[A-Za-z][A-Za-z0-9]*)*$',
    maxLength: 2000,
    description: 'Comma-separated top-level fields to answer with (of each item, for a list); `id` is always included.',
  }),
);
export const FieldsQuery = Type.Object({ fields: Fields }, { additionalProperties: false });

/** The fields of the object a route answers (of each item of a list), from its 200 schema. */
function answerFields(request: FastifyRequest): string[] | undefined {
  const answer = (request.routeOptions.schema?.response as Record<string, unknown> | undefined)?.['200'] as
    { properties?: Record<string, { items?: { properties?: object } }> } | undefined;
  const item = answer?.properties?.data?.items?.properties ?? answer?.properties;
  return item ? Object.keys(item) : undefined;
}

/** Keeps `fields` of a JSON object, in the order the answer has them. */
function pick(value: Record<string, unknown>, fields: ReadonlySet<string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([field]) => fields.has(field)));
}

/** One answer object, as UTF-8 JSON, cut to the selection. */
export function selectFromItem(json: Buffer | string, fields: ReadonlySet<string>): Buffer {
  return Buffer.from(JSON.stringify(pick(JSON.parse(json.toString()) as Record<string, unknown>, fields)));
}

/** A list's answer (or a single object) as UTF-8 JSON, its items cut to the selection. */
function selectFromAnswer(json: Buffer | string, fields: ReadonlySet<string>): Buffer {
  const answer = JSON.parse(json.toString()) as Record<string, unknown>;
  if (!Array.isArray(answer.data)) return Buffer.from(JSON.stringify(pick(answer, fields)));
  const data = (answer.data as Array<Record<string, unknown>>).map((item) => pick(item, fields));
  return Buffer.from(JSON.stringify({ ...answer, data }));
}

/**
 * `?fields=` on every read of the scope. Checked before the route runs (an unknown name is a 400 naming it);
 * applied to the answer's bytes before its ETag and the response cache see them, so each selection has an
 * ETag and a cache entry of its own (the URL differs). A list streamed item by item applies it per item.
 */
export function selectFields(scope: FastifyInstance): void {
  scope.addHook('preHandler', async (request: FastifyRequest) => {
    const asked = (request.query as { fields?: string } | undefined)?.fields;
    if (asked === undefined) return;
    const known = answerFields(request) ?? [];
    const names = asked.split(',');
    const unknown = names.filter((name) => !known.includes(name));
    if (unknown.length > 0)
      throw invalid([
        {
          in: 'query',
          path: '/fields',
          message: `unknown field${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`,
        },
      ]);
    request.selectedFields = new Set(['id', ...names]);
  });
  scope.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const fields = request.selectedFields;
    if (!fields || request.fieldsApplied || reply.statusCode !== 200) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    return selectFromAnswer(payload, fields);
  });
}
