import type { ColumnDataType, RawBuilder } from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

/** Everything that differs between SQLite and PostgreSQL lives behind this interface, one file per dialect. */
export interface DialectHelpers {
  name: DialectName;
  /** Column types for the one migration set. */
  types: { uuid: ColumnDataType; timestamp: ColumnDataType; json: ColumnDataType; bool: ColumnDataType };
  isUniqueViolation(error: unknown): boolean;
  isForeignKeyViolation(error: unknown): boolean;
  /** `column` contains `needle` as a literal substring (no LIKE wildcards, so `%` and `_` match themselves). */
  containsText(column: string, needle: string): RawBuilder<boolean>;
}
