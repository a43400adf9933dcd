import crypto from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import tar from 'tar-stream';
import {
  HEADER_ENTRY,
  rowsEntryName,
  TRAILER_ENTRY,
  type ArchiveHeader,
  type ArchiveTrailer,
  type TrailerEntry,
} from './format.js';

/** A row chunk is closed past this many bytes: a reader holds one chunk at a time. */
const CHUNK_BYTES = 4 * 1024 * 1024;
/** Gzip's fastest level: an archive of a large database is written at about disk speed, not at the compressor's. */
const GZIP_LEVEL = zlib.constants.Z_BEST_SPEED;
const FILE_MODE = 0o600;

/**
 * Writes an archive (format.ts) to `file`. Everything goes to a temporary file beside it, renamed into place
 * by `finish`: an archive that exists is complete, and a failed one leaves nothing at `file`. The file is
 * private (mode 0600): a backup holds every secret the data dir holds.
 */
export class ArchiveWriter {
  readonly #pack = tar.pack();
  readonly #entries: TrailerEntry[] = [];
  readonly #rows: Record<string, number> = {};
  readonly #chunks: Record<string, number> = {};
  #files = 0;
  readonly #done: Promise<void>;
  readonly #temporary: string;

  private constructor(
    readonly target: string,
    mtime: Date,
  ) {
    this.#temporary = path.join(
      path.dirname(target),
      `.${path.basename(target)}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.partial`,
    );
    this.#mtime = mtime;
    this.#done = pipeline(
      this.#pack,
      zlib.createGzip({ level: GZIP_LEVEL }),
      fs.createWriteStream(this.#temporary, { flags: 'wx', mode: FILE_MODE }),
    );
    // Seen by finish() or abort(); unheard until then, a failed write would be an unhandled rejection.
    this.#done.catch(() => undefined);
  }

  readonly #mtime: Date;

  static async create(file: string, header: ArchiveHeader): Promise<ArchiveWriter> {
    const writer = new ArchiveWriter(path.resolve(file), new Date(header.createdAt));
    await writer.#entry(HEADER_ENTRY, Buffer.from(`${JSON.stringify(header, null, 2)}\n`));
    return writer;
  }

  /**
   * Writes a table's rows, read page by page, as NDJSON chunks; answers how many rows it wrote. A row is an
   * object, or a line of JSON already encoded.
   */
  async rows(
    table: string,
    pages:
      | AsyncIterable<ReadonlyArray<Record<string, unknown> | string>>
      | Iterable<ReadonlyArray<Record<string, unknown> | string>>,
  ): Promise<number> {
    let lines: Buffer[] = [];
    let bytes = 0;
    let count = 0;
    const flush = async () => {
      if (lines.length === 0) return;
      this.#chunks[table] = (this.#chunks[table] ?? 0) + 1;
      await this.#entry(rowsEntryName(table, this.#chunks[table]!), Buffer.concat(lines, bytes));
      lines = [];
      bytes = 0;
    };
    for await (const page of pages) {
      for (const row of page) {
        const line = Buffer.from(`${typeof row === 'string' ? row : JSON.stringify(row)}\n`);
        lines.push(line);
        bytes += line.length;
        count += 1;
        if (bytes >= CHUNK_BYTES) await flush();
      }
    }
    await flush();
    this.#rows[table] = (this.#rows[table] ?? 0) + count;
    return count;
  }

  /** Streams a file of `size` bytes into the archive under `name`; `onBytes` hears how much is written. */
  async file(name: string, size: number, body: Readable, onBytes?: (written: number) => void): Promise<void> {
    const hash = crypto.createHash('sha256');
    let written = 0;
    const finished = new Promise<void>((resolve, reject) => {
      const sink = this.#pack.entry({ name, size, mode: 0o644, mtime: this.#mtime }, (error) =>
        error ? reject(error) : resolve(),
      );
      void (async () => {
        for await (const chunk of body) {
          const bytes = chunk as Buffer;
          written += bytes.length;
          // A file that grew since its size was taken would corrupt the tar; it is refused instead.
          if (written > size) throw new Error(`${name} changed while it was archived`);
          hash.update(bytes);
          if (!sink.write(bytes)) await once(sink, 'drain');
          onBytes?.(written);
        }
        if (written !== size) throw new Error(`${name} changed while it was archived`);
        sink.end();
      })().catch((error: Error) => {
        sink.destroy(error);
        reject(error);
      });
    });
    await finished;
    this.#entries.push({ name, size, sha256: hash.digest('hex') });
    this.#files += 1;
  }

  /** Writes the trailer and moves the archive into place; answers its size in bytes. */
  async finish(): Promise<number> {
    const trailer: ArchiveTrailer = { entries: this.#entries, rows: this.#rows, files: this.#files };
    await this.#entry(TRAILER_ENTRY, Buffer.from(`${JSON.stringify(trailer)}\n`), false);
    this.#pack.finalize();
    await this.#done;
    fs.renameSync(this.#temporary, this.target);
    return fs.statSync(this.target).size;
  }

  /** Gives up: nothing is left behind. */
  async abort(): Promise<void> {
    this.#pack.destroy();
    await this.#done.catch(() => undefined);
    fs.rmSync(this.#temporary, { force: true });
  }

  async #entry(name: string, body: Buffer, listed = true): Promise<void> {
    await new Promise<void>((resolve, reject) =>
      this.#pack.entry({ name, size: body.length, mode: 0o644, mtime: this.#mtime }, body, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
    if (listed)
      this.#entries.push({ name, size: body.length, sha256: crypto.createHash('sha256').update(body).digest('hex') });
  }
}
