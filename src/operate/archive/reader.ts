import crypto from 'node:crypto';
import fs from 'node:fs';
import zlib from 'node:zlib';
import tar from 'tar-stream';
import {
  ArchiveError,
  checkHeader,
  HEADER_ENTRY,
  tableOfRowsEntry,
  TRAILER_ENTRY,
  type ArchiveHeader,
  type ArchiveKind,
  type ArchiveTrailer,
  type TrailerEntry,
} from './format.js';

/** No JSON entry a writer makes comes near this; a larger one is a damaged or hostile archive. */
const MAX_JSON_ENTRY_BYTES = 256 * 1024 * 1024;

export type ArchiveEntry =
  | { kind: 'rows'; table: string; rows: Array<Record<string, unknown>> }
  /** `chunks` must be read to its end before the next entry is asked for. */
  | { kind: 'file'; name: string; size: number; chunks: AsyncIterable<Buffer> };

export interface OpenedArchive {
  header: ArchiveHeader;
  /** Whether the format is a newer minor version than this Quire's (its unknown tables are skipped). */
  newerMinor: boolean;
  /**
   * The entries between header and trailer, in order. The iteration ends by checking every entry against
   * the trailer, and throws an ArchiveError when one differs, is missing or was added, or when the archive
   * ends early: a consumer learns that an archive is sound only when the iteration has ended.
   */
  entries: AsyncIterable<ArchiveEntry>;
  /** Compressed bytes read so far, for progress. */
  bytesRead(): number;
  /** The compressed size of the archive. */
  size: number;
  close(): void;
}

function damaged(file: string, why: string): ArchiveError {
  return new ArchiveError(`${file} is damaged: ${why}`);
}

async function readAll(chunks: AsyncIterable<Buffer>, limit: number, file: string, name: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  let length = 0;
  for await (const chunk of chunks) {
    length += chunk.length;
    if (length > limit) throw damaged(file, `its entry ${name} is larger than any Quire writes`);
    parts.push(chunk);
  }
  return Buffer.concat(parts, length);
}

function parseJson(body: Buffer, file: string, name: string): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw damaged(file, `its entry ${name} is not valid JSON`);
  }
}

/** Translates what gzip and tar say about a broken stream into one line about the archive. */
function streamFailure(error: unknown, file: string): Error {
  if (error instanceof ArchiveError) return error;
  const { code, message } = error as NodeJS.ErrnoException;
  if (code === 'ENOENT') return new ArchiveError(`${file} does not exist`);
  if (code === 'EISDIR') return new ArchiveError(`${file} is a directory, not an archive`);
  if (code === 'Z_BUF_ERROR' || /unexpected end/i.test(message)) return damaged(file, 'it ends early (truncated)');
  if (code?.startsWith('Z_') || /header|checksum|tar/i.test(message))
    return damaged(file, `it is not a readable gzip-compressed tar (${message})`);
  return error as Error;
}

/**
 * Opens an archive of `kind` and reads its header; its entries follow through `entries`. A wrong kind, a
 * version this Quire cannot read, or a file that is no archive at all is an ArchiveError at once.
 */
export async function openArchive(file: string, kind: ArchiveKind): Promise<OpenedArchive> {
  let size: number;
  try {
    const stat = fs.statSync(file);
    if (stat.isDirectory()) throw new ArchiveError(`${file} is a directory, not an archive`);
    size = stat.size;
  } catch (error) {
    throw streamFailure(error, file);
  }
  const input = fs.createReadStream(file);
  let bytesRead = 0;
  input.on('data', (chunk) => (bytesRead += chunk.length));
  const gunzip = zlib.createGunzip();
  const extract = tar.extract();
  const fail = (error: unknown) => extract.destroy(streamFailure(error, file));
  input.on('error', fail);
  gunzip.on('error', fail);
  input.pipe(gunzip).pipe(extract);
  const iterator = extract[Symbol.asyncIterator]();

  const next = async () => {
    try {
      return await iterator.next();
    } catch (error) {
      throw streamFailure(error, file);
    }
  };

  const first = await next();
  if (first.done || first.value.header.name !== HEADER_ENTRY) {
    extract.destroy();
    throw new ArchiveError(`${file} is not a Quire archive (it does not begin with ${HEADER_ENTRY})`);
  }
  const headerBytes = await readAll(first.value, 1024 * 1024, file, HEADER_ENTRY);
  const header = parseJson(headerBytes, file, HEADER_ENTRY) as ArchiveHeader;
  const { newerMinor } = checkHeader(header, kind, file);
  const seen: TrailerEntry[] = [
    {
      name: HEADER_ENTRY,
      size: headerBytes.length,
      sha256: crypto.createHash('sha256').update(headerBytes).digest('hex'),
    },
  ];

  async function* entries(): AsyncGenerator<ArchiveEntry> {
    for (let result = await next(); ; result = await next()) {
      if (result.done) throw damaged(file, `it ends before its closing entry ${TRAILER_ENTRY} (truncated)`);
      const entry = result.value;
      const name = entry.header.name;
      const hash = crypto.createHash('sha256');
      let length = 0;
      const hashed = (async function* () {
        try {
          for await (const chunk of entry) {
            hash.update(chunk);
            length += chunk.length;
            yield chunk as Buffer;
          }
        } catch (error) {
          throw streamFailure(error, file);
        }
      })();
      if (name === TRAILER_ENTRY) {
        const trailer = parseJson(await readAll(hashed, MAX_JSON_ENTRY_BYTES, file, name), file, name);
        checkTrailer(trailer as ArchiveTrailer, seen, file);
        if (!(await next()).done) throw damaged(file, `it has entries after ${TRAILER_ENTRY}`);
        return;
      }
      const table = tableOfRowsEntry(name);
      if (table !== null) {
        const body = await readAll(hashed, MAX_JSON_ENTRY_BYTES, file, name);
        const rows = body
          .toString('utf8')
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => parseJson(Buffer.from(line), file, name) as Record<string, unknown>);
        if (rows.some((row) => row === null || typeof row !== 'object' || Array.isArray(row)))
          throw damaged(file, `its entry ${name} holds a line that is not a row`);
        yield { kind: 'rows', table, rows };
      } else {
        yield { kind: 'file', name, size: entry.header.size ?? 0, chunks: hashed };
        for await (const _ of hashed); // what the consumer left unread still counts toward the checksum
      }
      seen.push({ name, size: length, sha256: hash.digest('hex') });
    }
  }

  return {
    header,
    newerMinor,
    entries: entries(),
    bytesRead: () => bytesRead,
    size,
    close: () => {
      extract.destroy();
      input.destroy();
    },
  };
}

function checkTrailer(trailer: ArchiveTrailer, seen: TrailerEntry[], file: string): void {
  if (!trailer || !Array.isArray(trailer.entries)) throw damaged(file, `its ${TRAILER_ENTRY} lists no entries`);
  const listed = new Map(trailer.entries.map((entry) => [entry.name, entry]));
  for (const entry of seen) {
    const expected = listed.get(entry.name);
    if (!expected) throw damaged(file, `its entry ${entry.name} is not in the list of entries it was written with`);
    if (expected.size !== entry.size || expected.sha256 !== entry.sha256)
      throw damaged(file, `its entry ${entry.name} does not match the checksum it was written with (modified)`);
    listed.delete(entry.name);
  }
  const missing = [...listed.keys()];
  if (missing.length > 0) throw damaged(file, `it lacks ${missing.length} of its entries (${missing[0]} …)`);
}
