import { conflict, type AppError } from '../errors.js';
import type { DialectHelpers } from './dialects/dialect.js';

/** The request field a unique column holds, where its name differs from the column's camelCase. */
const FIELDS: Record<string, string> = { key_hash: 'key', token_hash: 'token' };

const camelCase = (column: string) => column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/**
 * A driver error as the client should see it, on either dialect; undefined when it is not one a client
 * caused. A unique violation is a write that lost a race for a value another write took between our check
 * and our insert: the same 409 the check gives, naming the field (the index's last column: the first is
 * the workspace id on every per-workspace index).
 */
export function translateDriverError(dialect: DialectHelpers, error: unknown): AppError | undefined {
  const unique = dialect.uniqueViolation(error);
  if (!unique) return undefined;
  const column = unique.columns.filter((name) => name !== 'workspace_id').pop() ?? unique.columns.at(-1) ?? '';
  const field = FIELDS[column] ?? camelCase(column);
  return conflict(`The ${field} was taken by a concurrent write`, { field });
}

/**
 * A write that lost a race to a concurrent one and may simply run again: a unique value taken meanwhile, or
 * on PostgreSQL a deadlock or serialization failure (the transaction was rolled back whole).
 */
export function lostRace(dialect: DialectHelpers, error: unknown): boolean {
  if (dialect.uniqueViolation(error)) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return dialect.name === 'postgres' && (code === '40P01' || code === '40001');
}
