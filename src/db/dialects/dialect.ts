import type { ColumnDataType, Kysely, QueryExecutorProvider, RawBuilder, SelectQueryBuilder } from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

/** Everything that differs between SQLite and PostgreSQL lives behind this interface, one file per dialect. */
export interface DialectHelpers {
  name: DialectName;
  /** Column types for the one migration set. */
  types: { uuid: ColumnDataType; timestamp: ColumnDataType; json: ColumnDataType; bool: ColumnDataType };
  /** The table and columns of the unique index a driver error says was violated; undefined for any other error. */
  uniqueViolation(error: unknown): UniqueViolation | undefined;
  /**
   * `column` as an operand no index is looked up for. SQLite plans without statistics and takes any range on an
   * indexed column for a narrow one, sorting all its matches rather than walking the index of the order asked
   * for; PostgreSQL sizes the range from its statistics and needs no such help.
   */
  unindexed(column: string): RawBuilder<unknown>;
  /** `column` contains `needle` as a literal substring (no LIKE wildcards, so `%` and `_` match themselves). */
  containsText(column: string, needle: string): RawBuilder<boolean>;
  /**
   * A body's JSON (`column`, an array of blocks) holds an image block of `mediaId`: SQLite keeps the JSON as
   * the compact text the application wrote, PostgreSQL as jsonb, which answers containment.
   */
  bodyHasImage(column: string, mediaId: string): RawBuilder<boolean>;
  /**
   * The same match over a table's `search_head` or `search_text`, through their search indexes (SQLite
   * FTS5 trigram, PostgreSQL pg_trgm), so `q` stays a literal, case-insensitive substring search without
   * a scan.
   */
  searchIndexed(table: SearchableTable, needle: string): RawBuilder<boolean>;
  /**
   * When the search indexes find at most `limit` rows of `table` (in every workspace together) whose
   * search_head or search_text contains `needle`: a condition naming exactly those rows, for the planner to start from.
   * Undefined when it finds more, or when the dialect's planner needs no such help: PostgreSQL keeps
   * statistics on its trigram index, while SQLite takes every FTS5 match as a probe into a walk of the
   * workspace's sort index, which is slow for a phrase in a few dozen of a large workspace's posts.
   */
  searchFew(
    db: QueryExecutorProvider,
    table: SearchableTable,
    needle: string,
    limit: number,
  ): Promise<RawBuilder<boolean> | undefined>;
  /**
   * Creates the index of one of `table`'s search columns (a migration's step), filling it from the rows already
   * there.
   */
  createSearchIndex(db: Kysely<unknown>, table: SearchableTable, column?: SearchColumn): Promise<void>;
  /** Drops that index, so that a migration can rewrite the column without re-indexing row by row. */
  dropSearchIndex(db: Kysely<unknown>, table: SearchableTable, column: SearchColumn): Promise<void>;
  /**
   * Already-encoded UTF-8 text as a parameter for a text column, so that it reads back as bytes where
   * the driver allows: SQLite keeps the bytes as they are (a blob in a column declared text), and
   * returns them as a Buffer without decoding; PostgreSQL's text takes a string.
   */
  textBytes(bytes: Buffer): Buffer | string;
  /**
   * A queue's claim: the rows `query` selects, locked for the claiming transaction, passing over rows another
   * transaction holds (PostgreSQL `FOR UPDATE SKIP LOCKED`, so instances share a queue without waiting on each
   * other). SQLite writes one transaction at a time, so the query is left as it is.
   */
  skippingLocked<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O>;
}

/** A unique index a write collided with, as both drivers report it (db/errors.ts turns it into a 409). */
export interface UniqueViolation {
  table: string;
  columns: string[];
}

/** Tables whose search columns have search indexes: the large ones. */
export type SearchableTable = 'posts' | 'pages';

/**
 * A searchable table's two folded columns: the head (title, and a post's excerpt) and the body text.
 * Each has its own index, so a write of the one leaves the other's index alone.
 */
export type SearchColumn = 'search_head' | 'search_text';

/** The index of a search column, by the name 0005 gave the body's when it was a table's only one. */
export function searchIndexName(table: SearchableTable, column: SearchColumn): string {
  return column === 'search_text' ? `${table}_search` : `${table}_head_search`;
}
