import zlib from 'node:zlib';
import { Readable } from 'node:stream';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CONTENT_DOCUMENT } from '../../src/openapi/content-document.js';
import { CONTENT_PREFIX } from '../../src/server/content.js';
import { EXTERNAL_PREFIX } from '../../src/server/external.js';
import { recordContractMismatch } from './contract-mismatches.js';

// ajv-formats is CommonJS; its default export arrives one level down under NodeNext.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/*
 * The contract check: every answer of the external API and of the content API that an integration test
 * provokes is checked against that API's OpenAPI document of the same app, by operation (method + route)
 * and status: the status must be documented, the body must validate against its schema, the documented
 * headers must be there. Mismatches are collected in contract-mismatches.ts and fail the test that caused them
 * (contract-setup.ts).
 */

type JsonObject = Record<string, unknown>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Compiles each response schema once, against one document. */
class ContractDocument {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(readonly document: JsonObject) {
    addFormats(this.ajv, ['date-time', 'uri', 'email']);
    this.ajv.addFormat('uuid', UUID);
    // The document is one schema resource: `#/components/...` references resolve inside it.
    this.ajv.addSchema(document, 'openapi.json');
  }

  /** The response object for an operation and status, `$ref`s to shared responses followed. */
  response(
    path: string,
    method: string,
    status: number,
  ): { pointer: string; response: JsonObject } | 'no-operation' | 'undocumented' {
    const operation = (this.document.paths as Record<string, Record<string, JsonObject> | undefined>)[path]?.[method];
    if (!operation) return 'no-operation';
    const responses = operation.responses as Record<string, JsonObject>;
    const key = [String(status), `${String(status)[0]}XX`, 'default'].find((candidate) => responses[candidate]);
    if (!key) return 'undocumented';
    let response = responses[key]!;
    let pointer = `#/paths/${escape(path)}/${method}/responses/${key}`;
    if (typeof response.$ref === 'string') {
      pointer = response.$ref;
      response = this.resolve(pointer);
    }
    return { pointer, response };
  }

  resolve(pointer: string): JsonObject {
    return pointer
      .slice(2)
      .split('/')
      .reduce<JsonObject>(
        (node, part) => node[decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~')] as JsonObject,
        this.document,
      );
  }

  validator(pointer: string): ValidateFunction {
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `openapi.json${pointer}` });
      this.validators.set(pointer, validate);
    }
    return validate;
  }

  errorsOf(validate: ValidateFunction): string {
    return this.ajv.errorsText(validate.errors, { separator: '; ', dataVar: 'body' });
  }
}

/** A JSON Pointer segment as a URI fragment holds it (`{idOrSlug}` percent-encoded). */
const escape = (segment: string) => encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'));

// A document depends on the code only, never on configuration, so one of each per process is enough.
let external: ContractDocument | undefined;
let content: ContractDocument | undefined;

/** The document of the API the route belongs to, and the prefix its paths are written below. */
function contractOf(app: FastifyInstance, template: string): { contract: ContractDocument; prefix: string } {
  if (template.startsWith(`${CONTENT_PREFIX}/`)) {
    const read = (app as unknown as Record<string, () => JsonObject>)[CONTENT_DOCUMENT]!;
    content ??= new ContractDocument(read());
    return { contract: content, prefix: CONTENT_PREFIX };
  }
  external ??= new ContractDocument(app.swagger() as unknown as JsonObject);
  return { contract: external, prefix: EXTERNAL_PREFIX };
}

function headerValue(reply: FastifyReply, name: string): string | undefined {
  const value = reply.getHeader(name);
  return value === undefined ? undefined : String(value);
}

/** The body as JSON text, decompressed when it was sent compressed (a GET that asked for gzip or br). */
function decoded(reply: FastifyReply, payload: unknown): string {
  const bytes = typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : undefined;
  if (bytes === undefined) return '';
  const encoding = headerValue(reply, 'content-encoding');
  if (encoding === 'gzip') return zlib.gunzipSync(bytes).toString('utf8');
  if (encoding === 'br') return zlib.brotliDecompressSync(bytes).toString('utf8');
  if (encoding === 'deflate') return zlib.inflateSync(bytes).toString('utf8');
  return bytes.toString('utf8');
}

function check(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, payload: unknown): string | null {
  const template = request.routeOptions.url;
  // A path no route matched (401 or 404 from the scope's not-found handler) is no operation.
  if (template === undefined || request.method === 'HEAD') return null;
  const { contract, prefix } = contractOf(app, template);
  const path = template.slice(prefix.length).replace(/:(\w+)/g, '{$1}');
  const method = request.method.toLowerCase();
  const status = reply.statusCode;
  const found = contract.response(path, method, status);
  const where = `${request.method} ${request.url} → ${status}`;
  if (found === 'no-operation') return `${where}: ${request.method} ${path} is not in the document`;
  if (found === 'undocumented') return `${where}: status ${status} is not documented for ${request.method} ${path}`;

  const problems: string[] = [];
  for (const [name, header] of Object.entries((found.response.headers ?? {}) as Record<string, JsonObject>)) {
    const definition = typeof header.$ref === 'string' ? contract.resolve(header.$ref) : header;
    if (definition.required === true && headerValue(reply, name) === undefined)
      problems.push(`header ${name} is missing`);
  }

  // A streamed answer (a page of posts too large to assemble, http/post-list.ts) leaves before its body exists:
  // its headers are checked here, its body by the test that reads it (large-posts.test.ts).
  if (payload instanceof Readable) return problems.length > 0 ? `${where}: ${problems.join('; ')}` : null;
  const text = decoded(reply, payload);
  const content = found.response.content as Record<string, JsonObject> | undefined;
  if (!content) {
    if (text !== '') problems.push('a body was sent where the document says there is none');
  } else if (!content['application/json']) {
    // A document of another type (a feed, a sitemap): the type it came as must be one the operation names.
    const type = String(headerValue(reply, 'content-type') ?? '')
      .split(';')[0]!
      .trim();
    if (!content[type]) problems.push(`the document has no ${type} body for this status`);
    else if (text === '') problems.push(`the ${type} body is empty`);
  } else {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      problems.push(`the body is not JSON: ${text.slice(0, 200)}`);
    }
    if (problems.length === 0) {
      const validate = contract.validator(`${found.pointer}/content/application~1json/schema`);
      // `?fields=` answers a part of each object by design: the fields it leaves out are not missing.
      const selected = (request.query as { fields?: unknown } | undefined)?.fields !== undefined;
      if (!validate(body) && (!selected || validate.errors!.some((error) => error.keyword !== 'required')))
        problems.push(`${contract.errorsOf(validate)}; body: ${text.slice(0, 300)}`);
    }
  }
  return problems.length === 0 ? null : `${where}: ${problems.join('; ')}`;
}

/** The observer buildTestApp hands to buildApp: records each mismatch, never disturbs the answer. */
export function contractObserver(getApp: () => FastifyInstance) {
  return (request: FastifyRequest, reply: FastifyReply, payload: unknown): void => {
    try {
      const mismatch = check(getApp(), request, reply, payload);
      if (mismatch) recordContractMismatch(mismatch);
    } catch (error) {
      recordContractMismatch(
        `${request.method} ${request.url}: the contract check failed: ${(error as Error).stack ?? String(error)}`,
      );
    }
  };
}
