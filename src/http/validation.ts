import {
  Ajv,
  type AnySchemaObject,
  type ErrorObject,
  type KeywordDefinition,
  type SchemaValidateFunction,
  type ValidateFunction,
} from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import type { ValidationIssue } from '../errors.js';
import { findInJson } from '../shared/json.js';
import { LOWERCASE_UUID } from '../shared/schemas.js';
import { isUuid } from '../shared/slug.js';
import { deferCompile } from './deferred-compile.js';

// ajv-formats is CommonJS; its default export arrives one level down under NodeNext.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

/** An RFC 3339 date-time with seconds below 60 whose instant lies in the years 1 to 9999 UTC. */
export function isStorableDateTime(value: string): boolean {
  if (!DATE_TIME.test(value) || Number(value.slice(17, 19)) > 59) return false;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return false;
  const year = new Date(ms).getUTCFullYear();
  return year >= 1 && year <= 9999;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Where a validated value sits: ajv's data context, which its index does not export. */
interface ParentOf {
  parentData: Record<string | number, unknown>;
  parentDataProperty: string | number;
}

/**
 * Ids are stored lower-case, and SQLite compares text as it is while PostgreSQL's uuid type ignores case: a
 * UUID a client writes in capitals is lower-cased here, once, so every service and query sees one spelling.
 * Anything not shaped like a UUID (a slug in `{idOrSlug}`) is left as it is.
 */
const lowercaseUuid: KeywordDefinition = {
  keyword: LOWERCASE_UUID,
  type: 'string',
  schemaType: 'boolean',
  modifying: true,
  errors: false,
  validate(_schema: boolean, data: string, _parent?: AnySchemaObject, context?: ParentOf) {
    if (context && isUuid(data) && data !== data.toLowerCase())
      context.parentData[context.parentDataProperty] = data.toLowerCase();
    return true;
  },
};

/**
 * `x-maxDepth: n` on a free-form object: no object or array in it nests more than n levels (the
 * object itself is level 1). Storing, presenting and serializing a value recurse through it, so a
 * deep one would fail there, after validation, as a 500.
 */
const checkMaxDepth: SchemaValidateFunction = (max: number, data: unknown, _schema, context) => {
  const tooDeep = findInJson(data, ({ value, depth }) => depth >= max && value !== null && typeof value === 'object');
  if (tooDeep === null) return true;
  checkMaxDepth.errors = [
    {
      keyword: 'x-maxDepth',
      instancePath: `${context?.instancePath ?? ''}${tooDeep.path}`,
      params: { limit: max },
      message: `nests deeper than ${max} levels`,
    },
  ];
  return false;
};

function createAjv(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({
    coerceTypes,
    useDefaults: true,
    // Unknown fields are refused by name (contract §5), never silently dropped.
    removeAdditional: false,
    allErrors: false,
    strict: true,
    // Picks a union's branch by its tag, so block errors point into the block type that was meant.
    discriminator: true,
  });
  addFormats(ajv, ['date-time', 'uri', 'email']);
  // RFC 3339 admits instants a Date cannot hold (a leap second) and years PostgreSQL refuses; both
  // would reach the database as a 500, so the format itself refuses them.
  ajv.addFormat('date-time', { type: 'string', validate: isStorableDateTime });
  // ajv-formats' uuid also takes a `urn:uuid:` prefix, which PostgreSQL's uuid type does not.
  ajv.addFormat('uuid', UUID);
  ajv.addKeyword(lowercaseUuid);
  ajv.addKeyword({
    keyword: 'x-maxDepth',
    type: ['object', 'array'],
    schemaType: 'number',
    errors: true,
    validate: checkMaxDepth,
  });
  return ajv;
}

/** Bodies are JSON and keep their types; query strings and path params are text and are coerced. */
const bodyAjv = createAjv(false);
const textAjv = createAjv(true);

export interface Validator {
  (data: unknown): boolean;
  /** The last call's errors, where Fastify reads them. */
  errors?: ValidateFunction['errors'];
}

/** Compiled on the route's first request (deferred-compile.ts). */
export function validatorCompiler({ schema, httpPart }: { schema: object; httpPart?: string }): Validator {
  const text = httpPart !== 'body';
  const compiled = deferCompile(() => (text ? textAjv : bodyAjv).compile(schema));
  const validate: Validator = (data) => {
    const check = compiled();
    const valid = check(data);
    validate.errors = check.errors;
    return valid && (!text || finiteNumbers(data, validate));
  };
  return validate;
}

/**
 * ajv coerces `1e309` in a query string to Infinity and then skips every numeric keyword (minimum,
 * maximum), which only apply to finite numbers; the database would then be handed Infinity.
 */
function finiteNumbers(data: unknown, validate: Validator): boolean {
  if (data === null || typeof data !== 'object') return true;
  for (const [name, value] of Object.entries(data)) {
    if (typeof value === 'number' && !Number.isFinite(value)) {
      const instancePath = `/${escapePointer(name)}`;
      validate.errors = [
        { instancePath, schemaPath: '#/type', keyword: 'type', params: {}, message: 'must be a finite number' },
      ];
      return false;
    }
  }
  return true;
}

/** Fields a client may read but never write; naming them in an error says why the write was refused. */
const READ_ONLY_FIELDS = new Set([
  'id',
  'workspaceId',
  'bodyText',
  'tocItems',
  'readingTimeMin',
  'viewCount',
  'seoScore',
  'readabilityScore',
  'jsonLd',
  'createdAt',
  'updatedAt',
  'deletedAt',
  'author',
  'category',
  'featuredMedia',
  'tags',
  'relatedPosts',
  'avatarMedia',
  'path',
  'url',
  'keyPrefix',
  'status',
  'revokedAt',
  'createdBy',
  'scheduledAt',
  'hitCount',
  'firstSeenAt',
  'lastSeenAt',
  'storagePath',
  'filename',
  'mimeType',
  'sizeBytes',
  'width',
  'height',
  'uploadedByUserId',
  'uploadedByApiKeyId',
]);

const PART_NAMES: Record<string, ValidationIssue['in']> = {
  body: 'body',
  querystring: 'query',
  params: 'params',
  headers: 'headers',
};

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** One ajv error as an issue: a JSON Pointer into the request part, and a sentence a person can act on. */
export function toIssue(
  error: ErrorObject | FastifySchemaValidationError,
  part: string | undefined,
  readOnly = READ_ONLY_FIELDS,
): ValidationIssue {
  const location = PART_NAMES[part ?? 'body'] ?? 'body';
  const params = error.params as Record<string, unknown>;
  let path = error.instancePath;
  let message = error.message ?? 'is invalid';
  if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    const field = params.additionalProperty;
    path = `${path}/${escapePointer(field)}`;
    message = readOnly.has(field) && location === 'body' ? `${field} is read-only` : `${field} is not a known field`;
  } else if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
    path = `${path}/${escapePointer(params.missingProperty)}`;
    message = `${params.missingProperty} is required`;
  } else if (error.keyword === 'discriminator' && typeof params.tag === 'string') {
    path = `${path}/${escapePointer(params.tag)}`;
    message = `${params.tag} is missing or not one of the known values`;
  } else if (error.keyword === 'not') {
    // The one `not` in our schemas: a slug may not look like a UUID, which `{idOrSlug}` reads as an id.
    message = 'must not be shaped like a UUID';
  } else if (error.keyword === 'minProperties') {
    message = 'at least one field is required';
  }
  return { in: location, path, message };
}
