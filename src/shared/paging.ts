/** A page of a list as services answer it; http/pagination.ts reads it from a query and writes it out. */
export interface PageRequest<K extends string = string> {
  page: number;
  pageSize: number;
  order: 'asc' | 'desc';
  /** Absent when the caller asked for no sort: the list then runs newest first and `orderBy` is omitted. */
  orderBy: K | undefined;
}

export interface Paginated<T> {
  data: T[];
  page: number;
  pageSize: number;
  order: 'asc' | 'desc';
  orderBy?: string;
  total: number;
  totalPages: number;
}

/**
 * The total a page implies on its own: a page that holds rows but is not full ends the list, and an
 * empty first page means an empty list. Otherwise undefined, and the caller counts. A search for a
 * rare word answers from one query this way instead of running the search twice.
 */
export function impliedTotal(request: PageRequest, rowsOnPage: number): number | undefined {
  if (rowsOnPage > 0 && rowsOnPage < request.pageSize) return (request.page - 1) * request.pageSize + rowsOnPage;
  if (rowsOnPage === 0 && request.page === 1) return 0;
  return undefined;
}

export function pageOf<T>(request: PageRequest, data: T[], total: number): Paginated<T> {
  const page: Paginated<T> = {
    data,
    page: request.page,
    pageSize: request.pageSize,
    order: request.order,
    total,
    totalPages: Math.max(1, Math.ceil(total / request.pageSize)),
  };
  if (request.orderBy !== undefined) page.orderBy = request.orderBy;
  return page;
}

/**
 * A page of a list as a read module answers it: the items as UTF-8 JSON, yielded as they are loaded, and
 * how many bytes they come to (http/list-answer.ts assembles a small page and streams a large one).
 */
export interface ListAnswer {
  page: Paginated<never>;
  items: AsyncIterable<Buffer>;
  bytes: number;
}
