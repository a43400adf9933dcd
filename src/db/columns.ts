import type { TSchema } from 'typebox';
import { parseJson, toJson } from '../shared/json.js';
import { toIso } from '../shared/time.js';

/**
 * How one writable field of the API is stored, in a resource's column map. Create, PATCH and the presenter all
 * read the map, so a field added to it is written by both and answered by reads without another edit.
 *
 * - `stored`: the column holds the field; writes convert it with `write`, reads with `read`.
 * - `computed`: the service writes it (a claimed slug, a body and what derives from it, rows of another
 *   table); reads answer the column as it is when one is named.
 */
export type ColumnSpec =
  | {
      kind: 'stored';
      column: string;
      write: (value: unknown) => unknown;
      read: (value: unknown) => unknown;
      /** The column's value on create when the body leaves the field out. */
      initial: unknown;
    }
  | { kind: 'computed'; column: string | null; read: (value: unknown) => unknown };

const same = (value: unknown) => value;

/** A field stored as it is written (`initial`: its value on create when left out; null by default). */
export function stored(column: string, options: { initial?: unknown } = {}): ColumnSpec {
  return { kind: 'stored', column, write: same, read: same, initial: options.initial ?? null };
}

/** A required text trimmed on write (a title or a name); it never needs an initial value. */
export function trimmed(column: string): ColumnSpec {
  return { kind: 'stored', column, write: (value) => (value as string).trim(), read: same, initial: undefined };
}

/** A free-form object or list, kept as JSON text (both dialects read it back as text). */
export function json(column: string, options: { initial?: unknown } = {}): ColumnSpec {
  return {
    kind: 'stored',
    column,
    write: toJson,
    read: (value) => parseJson(value as string | null),
    initial: toJson(options.initial ?? null),
  };
}

/** A boolean: SQLite stores 0 or 1, PostgreSQL a boolean; reads answer a boolean either way. */
export function flag(column: string, options: { initial: boolean }): ColumnSpec {
  return { kind: 'stored', column, write: Boolean, read: Boolean, initial: options.initial };
}

/** A timestamp the client may write in any offset; stored as UTC with milliseconds (contract conventions). */
export function instant(column: string): ColumnSpec {
  return {
    kind: 'stored',
    column,
    write: (value) => (value === null ? null : toIso(value as string)),
    read: same,
    initial: null,
  };
}

/** A field the service writes itself; reads answer `column` as stored, when the field has one. */
export function computed(column: string | null = null, read: (value: unknown) => unknown = same): ColumnSpec {
  return { kind: 'computed', column, read };
}

export interface ColumnMap<Body> {
  /** Every writable field, in the map's order. */
  readonly fields: ReadonlyArray<keyof Body & string>;
  /**
   * The columns a write of `body` sets: its stored fields that are present (all of them, with `initial`s, on
   * create).
   */
  write(body: Partial<Body>, options?: { create?: boolean }): Record<string, unknown>;
  /** The fields a read answers straight from the row: the stored ones and the computed ones with a column. */
  read(row: object): Partial<Body>;
  /** The columns the map reads. */
  readonly columns: readonly string[];
}

/**
 * A resource's column map. Its type lists every writable field of `Body`, so a field added to the write schema
 * does not compile until the map says where it goes.
 */
export function columnMap<Body>(specs: { [K in keyof Required<Body>]: ColumnSpec }): ColumnMap<Body> {
  const entries = Object.entries(specs) as Array<[keyof Body & string, ColumnSpec]>;
  return {
    fields: entries.map(([field]) => field),
    columns: entries.flatMap(([, spec]) => (spec.column === null ? [] : [spec.column])),
    write(body, { create = false } = {}) {
      const columns: Record<string, unknown> = {};
      for (const [field, spec] of entries) {
        if (spec.kind !== 'stored') continue;
        const value = body[field];
        if (value !== undefined) columns[spec.column] = spec.write(value);
        else if (create && spec.initial !== undefined) columns[spec.column] = spec.initial;
      }
      return columns;
    },
    read(row) {
      const fields: Partial<Body> = {};
      for (const [field, spec] of entries) {
        if (spec.column === null) continue;
        fields[field] = spec.read((row as Record<string, unknown>)[spec.column]) as Body[typeof field];
      }
      return fields;
    },
  };
}

/**
 * One field of a resource as its whole description: what reads answer (`answer`), what a client may write
 * (`write`, with `column`: where it goes), and the row's columns the field stands for beyond `column`
 * (`columns`: a read-only field's, or what a write derives from it). A resource's field list, in the order
 * its answer shows them, is then the one place a field is added: the schemas, the column map, the
 * workspace archive, the OpenAPI example and the seed read it.
 */
export type FieldSpec =
  | { answer: TSchema; write?: undefined; column?: undefined; columns?: readonly string[]; archivedSince?: number }
  | {
      answer?: TSchema;
      write: TSchema;
      column: ColumnSpec;
      columns?: readonly string[];
      /**
       * The minor version of the workspace archive that first holds the field's column: archives written before
       * it lack the column, which an import reads as null (nullable fields only).
       */
      archivedSince?: number;
    };

/** A resource's fields, kept as written so that the schemas built from them keep their types. */
export function fieldList<const Fields extends Record<string, FieldSpec>>(fields: Fields): Fields {
  return fields;
}

type WriteSchemas<Fields> = {
  [K in keyof Fields as Fields[K] extends { write: TSchema } ? K : never]: Fields[K] extends {
    write: infer S extends TSchema;
  }
    ? S
    : never;
};
type AnswerSchemas<Fields> = {
  [K in keyof Fields as Fields[K] extends { answer: TSchema } ? K : never]: Fields[K] extends {
    answer: infer S extends TSchema;
  }
    ? S
    : never;
};

/** The write schema of every writable field, in the list's order. */
export function writeSchemas<Fields extends Record<string, FieldSpec>>(fields: Fields): WriteSchemas<Fields> {
  return Object.fromEntries(
    Object.entries(fields).flatMap(([name, field]) => (field.write ? [[name, field.write]] : [])),
  ) as WriteSchemas<Fields>;
}

/** The answer schema of every field a read answers, in the list's order. */
export function answerSchemas<Fields extends Record<string, FieldSpec>>(fields: Fields): AnswerSchemas<Fields> {
  return Object.fromEntries(
    Object.entries(fields).flatMap(([name, field]) => (field.answer ? [[name, field.answer]] : [])),
  ) as AnswerSchemas<Fields>;
}

/** The column specs of the writable fields, for columnMap. */
export function columnSpecs<Fields extends Record<string, FieldSpec>>(
  fields: Fields,
): { [K in keyof WriteSchemas<Fields>]: ColumnSpec } {
  return Object.fromEntries(
    Object.entries(fields).flatMap(([name, field]) => (field.column ? [[name, field.column]] : [])),
  ) as { [K in keyof WriteSchemas<Fields>]: ColumnSpec };
}

/** The row's columns a field stands for, in order: its column map's column, then the others it names. */
export function fieldColumns(field: FieldSpec): string[] {
  return [...(field.column?.column ? [field.column.column] : []), ...(field.columns ?? [])];
}
