import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import Assembler from 'stream-json/Assembler.js';
import Parser from 'stream-json/Parser.js';
import { badRequest } from '../../../../errors.js';

/*
 * A Ghost export read as a stream of tokens, never as a whole: an export of thousands of posts is a file of
 * hundreds of megabytes, most of it tables an import never reads (members, emails, actions). Only the rows of the
 * tables asked for are assembled into objects, one at a time; everything else is skipped by counting its depth.
 * Both shapes Ghost has written are read: `{db: [{meta, data}]}` and the older top-level `{meta, data}`.
 */

export type Row = Record<string, unknown>;

export type ExportEvent =
  /** The export's `meta` object (version, exported_on). */
  | { kind: 'meta'; value: Row }
  /** A row of a table asked to be assembled. */
  | { kind: 'row'; table: string; value: Row }
  /** A row of a table asked to be counted only. */
  | { kind: 'counted'; table: string };

export interface ExportTables {
  /** Tables whose rows are assembled and handed over. */
  assemble: ReadonlySet<string>;
  /** Tables whose rows are only counted. */
  count?: ReadonlySet<string>;
}

interface Token {
  name: string;
  value?: string;
}

/** Where the next value of a container goes: an object's current key or an array's next index. */
interface Frame {
  array: boolean;
  key: string | number;
}

const isRow = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What a value at `path` is to the reader: the meta, a table, a row of one, a container on the way, or nothing. */
function placeOf(path: ReadonlyArray<string | number>): 'meta' | 'table' | 'row' | 'way' | 'skip' {
  // `db.N.` in front, or nothing (the older shape).
  let at = 0;
  if (path[0] === 'db') {
    if (path.length === 1) return 'way';
    if (typeof path[1] !== 'number') return 'skip';
    at = 2;
  }
  const rest = path.slice(at);
  if (rest.length === 0) return 'way';
  if (rest[0] === 'meta') return rest.length === 1 ? 'meta' : 'skip';
  if (rest[0] !== 'data') return 'skip';
  if (rest.length === 1) return 'way';
  if (rest.length === 2) return 'table';
  return rest.length === 3 && typeof rest[2] === 'number' ? 'row' : 'skip';
}

/**
 * The events of an export in file order. Throws `badRequest` naming the file when it cannot be read as JSON (with
 * how far the reading got, since the parser gives no position of its own).
 */
export async function* readExport(file: string, tables: ExportTables): AsyncGenerator<ExportEvent> {
  const source = createReadStream(file);
  const tokens = source.pipe(new Parser({ packValues: true, streamValues: false }));
  source.on('error', (error) => tokens.destroy(error));
  const frames: Frame[] = [];
  let skipDepth = 0;
  let assembler: Assembler | null = null;
  let assembling: { kind: 'meta' } | { kind: 'row'; table: string } | null = null;

  const path = () => frames.map((frame) => frame.key);
  try {
    for await (const chunk of tokens) {
      const token = chunk as Token;
      if (assembler !== null) {
        assembler.consume(token);
        if (assembler.done) {
          const value: unknown = assembler.current;
          const what = assembling!;
          assembler = null;
          assembling = null;
          if (isRow(value))
            yield what.kind === 'meta' ? { kind: 'meta', value } : { kind: 'row', table: what.table, value };
        }
        continue;
      }
      if (skipDepth > 0) {
        if (token.name === 'startObject' || token.name === 'startArray') skipDepth += 1;
        else if (token.name === 'endObject' || token.name === 'endArray') skipDepth -= 1;
        continue;
      }
      const name = token.name;
      if (name === 'keyValue') {
        frames.at(-1)!.key = token.value ?? '';
        continue;
      }
      if (name === 'endObject' || name === 'endArray') {
        frames.pop();
        continue;
      }
      // A value starts: in an array it takes the next index.
      const top = frames.at(-1);
      if (top?.array === true) top.key = (top.key as number) + 1;
      const starts = name === 'startObject' || name === 'startArray';
      if (!starts) continue;
      const place = placeOf(path());
      const table = String(frames.at(-1)?.key ?? '');
      if (place === 'meta' && name === 'startObject') {
        assembling = { kind: 'meta' };
      } else if (place === 'row' && tables.assemble.has(String(frames.at(-2)?.key))) {
        assembling = { kind: 'row', table: String(frames.at(-2)!.key) };
      } else if (place === 'row' && tables.count?.has(String(frames.at(-2)?.key)) === true) {
        yield { kind: 'counted', table: String(frames.at(-2)!.key) };
        skipDepth = 1;
        continue;
      } else if (
        place === 'way' ||
        (place === 'table' && name === 'startArray' && (tables.assemble.has(table) || tables.count?.has(table)))
      ) {
        frames.push(name === 'startArray' ? { array: true, key: -1 } : { array: false, key: '' });
        continue;
      } else {
        skipDepth = 1;
        continue;
      }
      assembler = new Assembler();
      assembler.consume(token);
    }
  } catch (error) {
    throw badRequest(
      `${basename(file)} is not a Ghost export that can be read as JSON (read ${source.bytesRead} bytes): ${
        (error as Error).message
      }`,
    );
  } finally {
    source.destroy();
  }
}
