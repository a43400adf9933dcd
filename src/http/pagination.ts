import { Type, type TLiteral, type TProperties, type TSchema, type TUnion } from 'typebox';
import { invalid } from '../errors.js';
import { Fields } from './fields.js';
import { deflatedPieces, deflateFraming, keepDeflated } from '../shared/gzip-pieces.js';
import type { PageRequest, Paginated } from '../shared/paging.js';

export const PAGE_SIZE_DEFAULT = 10;
export const PAGE_SIZE_MAX = 100;
/**
 * The largest page a list answers (docs/decisions.md): 2^31 - 1, so the offset it implies stays an
 * exact integer in JavaScript and in both databases' 64-bit OFFSET.
 */
export const PAGE_MAX = 2_147_483_647;

const SortOrder = Type.Union([Type.Literal('asc'), Type.Literal('desc')]);

/** The query schema of every list route: pagination and sort, plus the route's own filters. */
export function listQuery<const K extends string, P extends TProperties>(orderByKeys: readonly K[], filters: P) {
  return Type.Object(
    {
      page: Type.Integer({ minimum: 1, maximum: PAGE_MAX, default: 1 }),
      pageSize: Type.Integer({ minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_DEFAULT }),
      order: Type.Optional(SortOrder),
      orderBy: Type.Optional(Type.Union(orderByKeys.map((key) => Type.Literal(key))) as TUnion<TLiteral<K>[]>),
      fields: Fields,
      ...filters,
    },
    { additionalProperties: false },
  );
}

/** The PaginatedResponse of the specification around items of `item`. */
export function paginated<T extends TSchema>(item: T) {
  return Type.Object({
    data: Type.Array(item),
    page: Type.Integer({ minimum: 1 }),
    pageSize: Type.Integer({ minimum: 1 }),
    order: SortOrder,
    orderBy: Type.Optional(Type.String()),
    total: Type.Integer({ minimum: 0 }),
    totalPages: Type.Integer({ minimum: 1 }),
  });
}

/** The validated query as a PageRequest; `sortKeys` are the ones the route's schema admits. */
export function pageRequest<K extends string>(
  query: { page: number; pageSize: number; order?: 'asc' | 'desc'; orderBy?: string },
  sortKeys: readonly K[],
): PageRequest<K> {
  if (query.order !== undefined && query.orderBy === undefined) {
    throw invalid([{ in: 'query', path: '/order', message: 'order requires orderBy' }]);
  }
  const orderBy = sortKeys.find((key) => key === query.orderBy);
  return { page: query.page, pageSize: query.pageSize, order: query.order ?? 'desc', orderBy };
}

const DATA_START = Buffer.from('{"data":[');
const COMMA = Buffer.from(',');
const DATA_START_DEFLATED = deflateFraming(DATA_START);
const COMMA_DEFLATED = deflateFraming(COMMA);

/**
 * A page whose items are UTF-8 JSON already, as the `paginated` schema serializes it: the items spliced
 * in as they are, the rest written out in the order fast-json-stringify writes them (required
 * properties first, so the optional orderBy comes last). Bytes in, bytes out: a page of stored post
 * renders is large, and decoding it to a string only to encode it again was a large share of an uncached
 * list.
 */
export function paginatedJson(page: Paginated<Buffer>): Buffer {
  const parts: Buffer[] = [DATA_START];
  page.data.forEach((item, index) => {
    if (index > 0) parts.push(COMMA);
    parts.push(item);
  });
  const tail = pageTail(page);
  parts.push(tail);
  const bytes = Buffer.concat(parts);
  const deflated = deflatedPage(page.data, tail);
  return deflated ? keepDeflated(bytes, deflated) : bytes;
}

/**
 * The deflated form of the page (shared/gzip-pieces.ts) when every item came with its own: theirs, with the
 * framing's between them. A page of none has nothing worth splicing.
 */
function deflatedPage(items: readonly Buffer[], tail: Buffer): Buffer[] | undefined {
  if (items.length === 0) return undefined;
  const pieces: Buffer[] = [DATA_START_DEFLATED];
  for (const [index, item] of items.entries()) {
    const kept = deflatedPieces(item);
    if (kept === undefined) return undefined;
    if (index > 0) pieces.push(COMMA_DEFLATED);
    pieces.push(...kept);
  }
  pieces.push(deflateFraming(tail));
  return pieces;
}

/** The same bytes as paginatedJson, written out item by item as `items` yields them. */
export async function* paginatedChunks(page: Paginated<never>, items: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  yield DATA_START;
  let first = true;
  for await (const item of items) {
    if (!first) yield COMMA;
    first = false;
    yield item;
  }
  yield pageTail(page);
}

/** What follows a page's items, in the order fast-json-stringify writes the `paginated` schema. */
function pageTail(page: Paginated<unknown>): Buffer {
  const orderBy = page.orderBy === undefined ? '' : `,"orderBy":${JSON.stringify(page.orderBy)}`;
  return Buffer.from(
    `],"page":${page.page},"pageSize":${page.pageSize},"order":"${page.order}","total":${page.total},"totalPages":${page.totalPages}${orderBy}}`,
  );
}
