import type { ArchivedColumn, ArchivedTable } from './tables.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** What the two databases would not store alike (docs/decisions.md, "Input the databases disagree on"). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const unstorableText = (text: string) => text.includes('\u0000') || LONE_SURROGATE.test(text);

type Row = Record<string, unknown>;

/**
 * A database row as the archive writes it, one line of JSON: JSON columns as values, booleans as booleans,
 * numbers as numbers. A JSON column's text goes in as it is stored (both databases hold valid JSON), which
 * spares parsing and serializing every post body again.
 */
export function encodeRowLine(table: ArchivedTable, row: Row): string {
  const members: string[] = [];
  for (const [name, column] of Object.entries(table.columns)) {
    const value = row[name];
    let text: string;
    if (value === null || value === undefined) text = 'null';
    else if (column.type === 'json') text = value as string;
    else if (column.type === 'boolean') text = value ? 'true' : 'false';
    else if (column.type === 'integer') text = String(Number(value));
    else text = JSON.stringify(value);
    members.push(`${JSON.stringify(name)}:${text}`);
  }
  return `{${members.join(',')}}`;
}

/** An archive row as the database stores it, for the workspace `workspaceId`. */
export function decodeRow(table: ArchivedTable, row: Row, workspaceId: string): Row {
  const out: Row = { workspace_id: workspaceId };
  for (const [name, column] of Object.entries(table.columns)) {
    const value = row[name];
    out[name] = value === null ? null : column.type === 'json' ? JSON.stringify(value) : value;
  }
  if (table.name === 'media') out.storage_path = `${workspaceId}/${String(row.id)}/${String(row.filename)}`;
  return { ...out, ...table.derived?.(row) };
}

/** Whether a JSON value holds a string (or a member name) the databases would not store alike. */
function hasUnstorableString(value: unknown): boolean {
  const stack = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string' && unstorableText(item)) return true;
    if (Array.isArray(item)) stack.push(...item);
    else if (item !== null && typeof item === 'object') {
      for (const [key, member] of Object.entries(item)) stack.push(key, member);
    }
  }
  return false;
}

function columnProblem(column: ArchivedColumn, value: unknown): string | null {
  if (value === undefined) return column.absentAsNull ? null : 'is missing';
  if (value === null) return column.nullable ? null : 'is null';
  switch (column.type) {
    case 'uuid':
      return typeof value === 'string' && UUID.test(value) ? null : 'is not a lower-case UUID';
    case 'timestamp':
      return typeof value === 'string' && TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value))
        ? null
        : 'is not a UTC timestamp with milliseconds';
    case 'integer':
      return Number.isSafeInteger(value) ? null : 'is not an integer';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'is not a boolean';
    case 'text':
      if (typeof value !== 'string') return 'is not a string';
      return unstorableText(value) ? 'holds U+0000 or a lone surrogate' : null;
    case 'json':
      return hasUnstorableString(value) ? 'holds U+0000 or a lone surrogate' : null;
  }
}

/**
 * Why an archive row cannot be imported as a row of `table`, or null. Columns the table does not know (a
 * newer minor version's) are not looked at; `unknownColumns` names them.
 */
export function rowProblem(table: ArchivedTable, row: Row): string | null {
  for (const [name, column] of Object.entries(table.columns)) {
    const problem = columnProblem(column, row[name]);
    if (problem) return `${name} ${problem}`;
  }
  return null;
}

export function unknownColumns(table: ArchivedTable, row: Row): string[] {
  return Object.keys(row).filter((name) => !(name in table.columns));
}
