import fastJson from 'fast-json-stringify';
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
  const compiled = deferCompile(() => fastJson(withPlainUnions(schema) as Parameters<typeof fastJson>[0]));
  return (data) => compiled()(data);
}

function withPlainUnions(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withPlainUnions);
  if (schema === null || typeof schema !== 'object') return schema;
  if ('discriminator' in schema) return {};
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, withPlainUnions(value)]));
}
