import type { WordQuery } from '../../shared/search-words.js';
import type { ColumnDataType, Kysely, QueryExecutorProvider, RawBuilder, SelectQueryBuilder } from 'kysely';
import type { Database } from '../schema.js';

export type DialectName = 'sqlite' | 'postgres';

/**
 * Everything that differs between SQLite and PostgreSQL lives behind this interface: a folder per dialect, a file
 * per concern.
 */
export interface DialectHelpers {
  name: DialectName;
  /** Column types for the one migration set. */
  types: {
    uuid: ColumnDataType;
    timestamp: ColumnDataType;
    json: ColumnDataType;
    bool: ColumnDataType;
    /** Bytes that are not text (a stored deflated render): read back as a Buffer on both. */
    bytes: ColumnDataType;
  };
  /** The table and columns of the unique index a driver error says was violated; undefined for any other error. */
  uniqueViolation(error: unknown): UniqueViolation | undefined;
  /**
   * The referencing table and columns of a foreign key a driver error says was violated (as far as the driver
   * tells: SQLite names neither); undefined for any other error.
   */
  foreignKeyViolation(error: unknown): ForeignKeyViolation | undefined;
  /**
   * Why a driver error says the database is away rather than that the statement was wrong (PostgreSQL down,
   * restarting or unreachable; SQLite's disk full or read-only), as a short reason; undefined for any other error.
   */
  unavailable(error: unknown): string | undefined;
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
   * Creates the trigram index of one of `table`'s search columns, as migrations 0005 and 0008 did (0018
   * replaced them with the word index), filling it from the rows already there.
   */
  createSearchIndex(db: Kysely<unknown>, table: SearchableTable, column?: SearchColumn): Promise<void>;
  /** Drops that index, so that a migration can rewrite the column without re-indexing row by row. */
  dropSearchIndex(db: Kysely<unknown>, table: SearchableTable, column: SearchColumn): Promise<void>;
  /**
   * The live rows of `table` in `scope` whose stored words answer `query` (search-words.ts): through the word
   * index of migration 0018, SQLite FTS5, PostgreSQL a GIN index over a tsvector.
   */
  wordsMatch(table: SearchableTable, scope: WordScope, query: WordQuery): RawBuilder<boolean>;
  /**
   * The rows of `table` the word index finds for `query`: named when few (on SQLite in every workspace together,
   * on PostgreSQL in the scope), else counted in `scope` in the index alone.
   */
  wordsFound(
    db: QueryExecutorProvider,
    table: SearchableTable,
    scope: WordScope,
    query: WordQuery,
    few: number,
  ): Promise<WordsFound>;
  /**
   * Runs a search's statements so the planner reads the word index: PostgreSQL prices a scan of the narrow
   * word table below its index, not counting the words it would unpack from each row, so scans are off in the
   * search's own transaction (docs/performance.md, "Figures behind the code").
   */
  searching<D, T>(db: Kysely<D>, work: (db: Kysely<D>) => Promise<T>): Promise<T>;
  /**
   * The triggers that keep `post_status_counts` (migration 0019): each insert, delete, or change of a post's
   * status or deletion moves its workspace's count of live posts in that status, in the writing statement.
   */
  createStatusCountTriggers(db: Kysely<unknown>): Promise<void>;
  /**
   * The triggers that keep `post_tag_counts` (migration 0020): a tag attached to or detached from a live post,
   * and a tagged post deleted, move the tag's count of live posts.
   */
  createTagCountTriggers(db: Kysely<unknown>): Promise<void>;
  /** Creates the word index of `table` (migration 0018), filled from the stored words already there. */
  createWordIndex(db: Kysely<unknown>, table: SearchableTable): Promise<void>;
  /** Drops it, so that a bulk copy builds it once from the rows rather than row by row. */
  dropWordIndex(db: Kysely<unknown>, table: SearchableTable): Promise<void>;
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
  /**
   * Refreshes the planner's statistics of `tables` after a bulk load (a seed, an import). PostgreSQL plans from
   * statistics autovacuum refreshes only some time after one; until then it takes a full table for an empty
   * one and, for a search, walks the date index past every row instead of asking the word index. SQLite plans
   * without statistics: nothing to do.
   */
  analyze(db: Kysely<Database>, tables: readonly string[]): Promise<void>;
}

/** A unique index a write collided with, as both drivers report it (db/errors.ts turns it into a 409). */
export interface UniqueViolation {
  table: string;
  columns: string[];
}

/**
 * A foreign key a write broke: `missing` when the row it names is not there (an insert or update of the
 * referencing row), else the write deleted a row still referenced. `table` and `columns` are the referencing
 * side's, empty when the driver does not say.
 */
export interface ForeignKeyViolation {
  table: string;
  columns: string[];
  missing: boolean;
}

/**
 * What the index found: for at most `few` matches (in every workspace together) a condition naming exactly those
 * rows; for more, their count in the scope, and the live rows of the workspace (all statuses) it is among.
 * `inRow` is the same match checked on a row's stored words: for a walk of a sort index past a few rows each,
 * where most rows match, it costs less than the index's list of every match.
 */
export interface WordsFound {
  few: RawBuilder<boolean> | undefined;
  counted?: { total: number; live: number };
  inRow: RawBuilder<boolean>;
}

/** Whose rows a word search looks in: one workspace's, of one status when a list filters by it. */
export interface WordScope {
  workspaceId: string;
  status?: string | undefined;
}

/**
 * The words the index holds for a scope, beside a row's own words: `§` is no letter or digit, so no word of a
 * text or a query is ever one of them.
 */
export function scopeWords(workspaceId: string, status?: string): string {
  const workspace = `§${workspaceId.replace(/-/g, '')}`;
  return status === undefined ? workspace : `${workspace}§${status}`;
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
