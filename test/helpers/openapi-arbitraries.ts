import fc from 'fast-check';

/*
 * fast-check arbitraries drawn from the served OpenAPI document: a request per operation whose path,
 * query and body follow the operation's schemas, and hostile mutations of them (wrong types, huge and
 * deep values, unicode edge cases, prototype keys, bad ids and numbers) for the fuzz probe.
 */

type Schema = Record<string, unknown>;
export type OpenApiDocument = { paths: Record<string, Record<string, Schema>> } & Schema;

/**
 * JSON text written as is into the request (JSON.stringify cannot write 1e309 or -0), and how a value
 * nested thousands deep travels: fast-check's own printing of a counterexample would overflow the stack.
 */
export class RawJson {
  constructor(readonly text: string) {}
  [fc.toStringMethod](): string {
    return this.text.length > 60
      ? `RawJson(${this.text.slice(0, 30)}…, ${this.text.length} chars)`
      : `RawJson(${this.text})`;
  }
}

export interface Operation {
  method: string;
  path: string;
  pathParams: string[];
  query: Array<{ name: string; schema: Schema }>;
  body: Schema | undefined;
  multipart: boolean;
}

export interface FuzzRequest {
  operation: Operation;
  pathValues: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
  /** Sends the body with a content type other than JSON. */
  wrongContentType: boolean;
}

/** Values of a resource's ids and slugs that exist in the workspace, so that paths reach real rows. */
export type Fixtures = (path: string) => string[];

export function resolve(document: Schema, schema: Schema): Schema {
  let current = schema;
  while (typeof current.$ref === 'string') {
    current = current.$ref
      .slice(2)
      .split('/')
      .reduce<Schema>((node, part) => node[part.replace(/~1/g, '/').replace(/~0/g, '~')] as Schema, document);
  }
  return current;
}

/** How fast-check prints an operation in a counterexample. */
function named(operation: Omit<Operation, typeof fc.toStringMethod>): Operation {
  return Object.assign(operation, { [fc.toStringMethod]: () => `${operation.method} ${operation.path}` });
}

export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const parameters = (operation.parameters ?? []) as Array<{ in: string; name: string; schema: Schema }>;
      const content = (operation.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)?.content;
      operations.push(
        named({
          method: method.toUpperCase(),
          path,
          pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
          query: parameters.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema })),
          body: content?.['application/json'] ? resolve(document, content['application/json'].schema) : undefined,
          multipart: content?.['multipart/form-data'] !== undefined,
        }),
      );
    }
  }
  return operations;
}

const UNICODE_EDGES = [
  '\ud800',
  'lone low \udfff',
  'nul\u0000byte',
  '\u202eright-to-left',
  'e\u0301\u0301\u0301',
  '\ufeffbom',
  'zero\u200bwidth',
  '😀 pair',
  '\u{10ffff}',
  'ǅ İ ß ﬁ',
  '<script>alert(1)</script>',
  "'; drop table posts; --",
  '%00%ff%',
  '../../etc/passwd',
];
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', '__defineGetter__'];
const RAW_NUMBERS = ['1e309', '-1e309', '1e20', '9999999999999999999', '-0', '0.5', '2147483648', '-2147483649'];
const BAD_IDS = [
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  'urn:uuid:00000000-0000-4000-8000-000000000000',
  'FFFFFFFF-FFFF-4FFF-8FFF-FFFFFFFFFFFF',
  '{00000000-0000-4000-8000-000000000000}',
];

/** Text that is a valid member of the string domain a schema names, kept small. */
function stringArb(schema: Schema): fc.Arbitrary<string> {
  const max = Math.min(Number(schema.maxLength ?? 40), 40);
  const min = Math.min(Number(schema.minLength ?? 0), max);
  if (schema.format === 'uuid') return fc.uuid().map((id) => id.toLowerCase());
  if (schema.format === 'date-time')
    return fc
      .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
      .map((date) => date.toISOString());
  if (schema.format === 'uri') return fc.webUrl();
  if (schema.format === 'email') return fc.emailAddress();
  if (typeof schema.pattern === 'string') {
    const pattern = new RegExp(schema.pattern);
    return fc
      .stringMatching(pattern)
      .filter((text) => text.length >= min && text.length <= Number(schema.maxLength ?? 1e9));
  }
  return fc.string({ minLength: Math.max(min, 1), maxLength: Math.max(max, 1), unit: 'grapheme-ascii' });
}

/** A value the schema admits (mostly: patterns and formats are approximated). */
export function valueArb(document: Schema, input: Schema, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolve(document, input);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (branches) return fc.oneof(...branches.map((branch) => valueArb(document, branch, depth)));
  if (Array.isArray(schema.allOf)) return valueArb(document, (schema.allOf as Schema[])[0]!, depth);
  const type = Array.isArray(schema.type) ? (schema.type as string[])[0] : schema.type;
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: Number(schema.minimum ?? -1000), max: Math.min(Number(schema.maximum ?? 1000), 1e6) });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 });
    case 'string':
      return stringArb(schema);
    case 'array': {
      if (depth > 4) return fc.constant([]);
      const minLength = Number(schema.minItems ?? 0);
      const maxLength = Math.max(minLength, Math.min(Number(schema.maxItems ?? 3), 3));
      const items = valueArb(document, (schema.items ?? {}) as Schema, depth + 1);
      return schema.uniqueItems
        ? fc.uniqueArray(items, { minLength, maxLength })
        : fc.array(items, { minLength, maxLength });
    }
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      if (Object.keys(properties).length === 0)
        return depth > 4 ? fc.constant({}) : fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }));
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, property] of Object.entries(properties))
        record[name] = depth > 4 ? fc.constant(null) : valueArb(document, property, depth + 1);
      return fc.record(record, {
        requiredKeys: ((schema.required ?? []) as string[]).filter((name) => name in record),
      });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Something no schema asks for. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, 0, -1, '', [], {}),
  fc.constantFrom(...UNICODE_EDGES),
  fc.constantFrom(...BAD_IDS),
  fc.constantFrom(...RAW_NUMBERS).map((text) => new RawJson(text)),
  fc.constantFrom(...PROTOTYPE_KEYS).map((key) => JSON.parse(`{"${key}":{"polluted":true}}`) as unknown),
  fc
    .integer({ min: 1, max: 3 })
    .map((kind) =>
      kind === 1 ? 'x'.repeat(100_000) : kind === 2 ? Array.from({ length: 2_000 }, () => 1) : deep(5_000),
    ),
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
);

/** Objects and arrays in turn, `levels` deep. */
function deep(levels: number): RawJson {
  const open = Array.from({ length: levels }, (_, i) => (i % 2 === 0 ? '{"a":' : '[')).join('');
  const close = Array.from({ length: levels }, (_, i) => (i % 2 === 0 ? '}' : ']'))
    .reverse()
    .join('');
  return new RawJson(`${open}"bottom"${close}`);
}

/** One mutation of a valid body: a field replaced, a field added (prototype keys among them), or the whole. */
function mutateBody(body: unknown): fc.Arbitrary<unknown> {
  const fields = body !== null && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [];
  const replaceField =
    fields.length === 0
      ? hostileValue
      : fc
          .tuple(fc.constantFrom(...fields), hostileValue)
          .map(([field, value]) => ({ ...(body as Record<string, unknown>), [field]: value }));
  const addField = fc
    .tuple(fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS, 'id', 'workspaceId', 'unknownField'), fc.string()), hostileValue)
    .map(([field, value]) => {
      const copy = { ...(body as Record<string, unknown>) };
      Object.defineProperty(copy, field, { value, enumerable: true, configurable: true, writable: true });
      return copy;
    });
  return fc.oneof(replaceField, addField, hostileValue);
}

/** A request for `operation`, valid by its schemas or mutated, with path values from `fixtures` or hostile. */
export function requestArb(document: Schema, operation: Operation, fixtures: Fixtures): fc.Arbitrary<FuzzRequest> {
  const known = fixtures(operation.path);
  const pathValue = fc.oneof(
    { weight: 3, arbitrary: known.length > 0 ? fc.constantFrom(...known) : fc.uuid() },
    { weight: 1, arbitrary: fc.oneof(fc.constantFrom(...BAD_IDS, ...UNICODE_EDGES, 'x'.repeat(400)), fc.string()) },
  );
  const pathValues = fc.record(Object.fromEntries(operation.pathParams.map((name) => [name, pathValue])));
  const queryValue = (schema: Schema) =>
    fc.oneof(
      { weight: 3, arbitrary: valueArb(document, schema).map(String) },
      {
        weight: 1,
        arbitrary: fc.oneof(
          fc.constantFrom(...RAW_NUMBERS, ...BAD_IDS, ...UNICODE_EDGES, 'x'.repeat(5_000)),
          fc.string(),
        ),
      },
    );
  const query = fc.record(Object.fromEntries(operation.query.map(({ name, schema }) => [name, queryValue(schema)])), {
    requiredKeys: [],
  }) as fc.Arbitrary<Record<string, string>>;
  const validBody = operation.body ? valueArb(document, operation.body) : fc.constant(undefined);
  const body = validBody.chain((valid) =>
    valid === undefined
      ? fc.constant(undefined)
      : fc.oneof({ weight: 1, arbitrary: fc.constant(valid) }, { weight: 3, arbitrary: mutateBody(valid) }),
  );
  return fc.record({
    operation: fc.constant(operation),
    pathValues,
    query,
    body,
    wrongContentType: fc.integer({ min: 0, max: 9 }).map((draw) => draw === 0),
  });
}

/** The request text of a body: JSON, with RawJson values written as their text. */
export function jsonText(body: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(body, (_key, value: unknown) => {
    if (value instanceof RawJson) {
      raws.push(value.text);
      return `\u0001raw${raws.length - 1}\u0001`;
    }
    return value;
  });
  return text.replace(/"\\u0001raw(\d+)\\u0001"/g, (_match, index: string) => raws[Number(index)]!);
}
