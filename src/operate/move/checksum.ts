import crypto from 'node:crypto';

type Row = Record<string, unknown>;

/** How a column's values are compared across the two databases, from the PostgreSQL column's type. */
export type ColumnKind = 'boolean' | 'json' | 'timestamp' | 'number' | 'text';

export function columnKind(postgresType: string): ColumnKind {
  if (postgresType === 'boolean') return 'boolean';
  if (postgresType === 'jsonb' || postgresType === 'json') return 'json';
  if (postgresType.startsWith('timestamp')) return 'timestamp';
  if (['integer', 'bigint', 'smallint', 'numeric', 'real', 'double precision'].includes(postgresType)) return 'number';
  return 'text';
}

/** JSON with every object's keys sorted: PostgreSQL's jsonb keeps its own key order, SQLite the text as written. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Row)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

/** One value as both databases must agree on it. */
function canonical(kind: ColumnKind, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'boolean':
      return Boolean(value);
    case 'json':
      return canonicalJson(JSON.parse(value as string));
    case 'timestamp':
      return new Date(value as string).toISOString();
    case 'number':
      return Number(value);
    case 'text':
      return Buffer.isBuffer(value) ? value.toString('utf8') : String(value);
  }
}

/**
 * A table's content digest that does not depend on the order rows are read in (the two databases sort text
 * differently): the count of rows and the sum, modulo 2^128, of a sha256 prefix of each row's canonical form.
 */
export class TableChecksum {
  rows = 0;
  #sum = 0n;

  constructor(readonly columns: ReadonlyArray<{ name: string; kind: ColumnKind }>) {}

  add(row: Row): void {
    const values = this.columns.map(({ name, kind }) => canonical(kind, row[name]));
    const digest = crypto.createHash('sha256').update(JSON.stringify(values)).digest();
    this.#sum = (this.#sum + digest.readBigUInt64BE(0) * 2n ** 64n + digest.readBigUInt64BE(8)) % 2n ** 128n;
    this.rows += 1;
  }

  get digest(): string {
    return this.#sum.toString(16).padStart(32, '0');
  }
}
