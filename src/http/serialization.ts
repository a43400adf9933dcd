import fastJson from 'fast-json-stringify';
import type { FastifyReply } from 'fastify';
import { deferCompile } from './deferred-compile.js';

/**
 * Response serialization from the route schemas, with one change: a discriminated union (the 13 block
 * types) is serialized as plain JSON. fast-json-stringify picks a `oneOf` branch by validating the value
 * against each branch in turn, which for a list of posts cost more than everything else in the request
 * (docs/performance.md). Stored blocks were validated against the precise union when they were written,
 * and that union still validates requests and documents the responses in the OpenAPI document.
 * Compiled on the route's first answer with that status (deferred-compile.ts).
 */
export function serializerCompiler({ schema }: { schema: unknown }): (data: unknown) => string {
  return compileSerializer(schema);
}

/** The serializer a route with this response schema uses, for JSON built ahead of the request. */
export function compileSerializer<T>(schema: unknown): (data: T) => string {
  const compiled = deferCompile(() => fastJson(withPlainUnions(schema) as Parameters<typeof fastJson>[0]));
  return (data) => compiled()(data);
}

/**
 * Sends UTF-8 JSON that was serialized from the route's own response schema beforehand (stored post
 * renders): Fastify sends bytes with a JSON content type as they are, and the onSend hooks (ETag,
 * response cache) take them as they take a serialized string.
 */
export function sendSerialized(reply: FastifyReply, json: Buffer): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}

function withPlainUnions(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withPlainUnions);
  if (schema === null || typeof schema !== 'object') return schema;
  if ('discriminator' in schema) return {};
  const literals = literalUnionType(schema);
  if (literals) return { type: literals };
  const nullable = nullableOf(schema);
  if (nullable) return { ...(withPlainUnions(nullable) as object), nullable: true };
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, withPlainUnions(value)]));
}

/**
 * A union of literals of one type (TypeBox's `Union([Literal('draft'), …])`, the enums of the schemas)
 * as that type: fast-json-stringify would otherwise compile each literal with ajv and test the value
 * against them one by one on every answer (and compile them all at a cold start's first render). Values were
 * checked against the literals when they were written.
 */
function literalUnionType(schema: object): string | undefined {
  const branches = (schema as { anyOf?: unknown }).anyOf;
  if (!Array.isArray(branches) || branches.length === 0) return undefined;
  const types = new Set(
    branches.map((branch) =>
      typeof branch === 'object' && branch !== null && 'const' in branch
        ? (branch as { type?: unknown }).type
        : undefined,
    ),
  );
  const [type] = types;
  return types.size === 1 && typeof type === 'string' ? type : undefined;
}

const isNull = (schema: unknown) =>
  typeof schema === 'object' && schema !== null && (schema as { type?: unknown }).type === 'null';

/**
 * `X | null` (TypeBox writes `anyOf: [X, {type: 'null'}]`) as X with `nullable`: for an `anyOf`,
 * fast-json-stringify validates the value against each branch with ajv to pick one, which for an
 * embedded author or a media id cost more than writing it out.
 */
function nullableOf(schema: object): object | undefined {
  const branches = (schema as { anyOf?: unknown }).anyOf;
  if (
    !Array.isArray(branches) ||
    branches.length !== 2 ||
    Object.keys(schema).some((key) => key !== 'anyOf' && key !== 'description')
  )
    return undefined;
  const [first, second] = branches as unknown[];
  const other = isNull(first) ? second : isNull(second) ? first : undefined;
  if (typeof other !== 'object' || other === null || typeof (other as { type?: unknown }).type !== 'string')
    return undefined;
  return other;
}
