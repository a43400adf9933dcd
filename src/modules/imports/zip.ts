import { createWriteStream } from 'node:fs';
import { access, mkdir, rm } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { AppError, badRequest } from '../../errors.js';

/*
 * A zip from someone else's machine is unpacked as hostile input: every entry is checked before a byte of it is
 * written, nothing is ever written outside the folder asked for, and the bounds count the bytes actually
 * inflated, since a zip's declared sizes are whatever its maker wrote.
 */

export interface ZipLimits {
  /** Entries (files and folders) in the whole zip. */
  maxEntries: number;
  /** Bytes unpacked in all, counted as they are written. */
  maxBytes: number;
  /** An entry inflating past this many times its compressed size… */
  maxRatio: number;
  /** …and past this many bytes is a zip bomb. Small files compress far beyond the ratio legitimately. */
  ratioFloorBytes: number;
}

export const ZIP_LIMITS: ZipLimits = {
  maxEntries: 100_000,
  maxBytes: 8 * 1024 ** 3,
  maxRatio: 200,
  ratioFloorBytes: 100 * 1024 ** 2,
};

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** Why an entry's name cannot be written under the folder, or null when it can. */
function unsafeName(name: string): string | null {
  if (name.includes('\\')) return 'a backslash in its name';
  if (name.includes('\0')) return 'a NUL in its name';
  if (name.startsWith('/') || isAbsolute(name)) return 'an absolute path';
  if (/^[A-Za-z]:/.test(name)) return 'a drive letter';
  if (name.split('/').includes('..')) return 'a ".." segment';
  return null;
}

function openZip(file: string): Promise<ZipFile> {
  return new Promise((done, fail) => {
    // yauzl checks names too (and turns backslashes into slashes before it does): its refusal is ours.
    yauzl.open(file, { lazyEntries: true, autoClose: true, validateEntrySizes: true }, (error, zip) => {
      if (error !== null || zip === undefined)
        fail(badRequest(`${basename(file)} is not a zip file that can be read: ${error?.message ?? 'no entries'}`));
      else done(zip);
    });
  });
}

function openEntry(zip: ZipFile, entry: Entry): Promise<NodeJS.ReadableStream> {
  return new Promise((done, fail) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error !== null || stream === undefined) fail(error ?? new Error('no stream'));
      else done(stream);
    });
  });
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/**
 * Unpacks `file` into the folder `into` (made when missing). The whole zip is refused, with what was unpacked of
 * it removed, when an entry's name could reach outside the folder, when it is a symbolic link or encrypted, or
 * when it passes the limits.
 */
export async function unpackZip(
  file: string,
  into: string,
  limits: Partial<ZipLimits> = {},
): Promise<{ files: number; bytes: number }> {
  const bounds: ZipLimits = { ...ZIP_LIMITS, ...limits };
  const name = basename(file);
  const root = resolve(into);
  await mkdir(root, { recursive: true });
  const zip = await openZip(file);
  const made = new Set<string>();
  let files = 0;
  let bytes = 0;
  let entries = 0;

  const refuse = (entry: string, why: string) => badRequest(`${name}: the entry "${entry}" is refused: ${why}`);

  const write = async (entry: Entry): Promise<void> => {
    entries += 1;
    if (entries > bounds.maxEntries) throw badRequest(`${name}: more than ${bounds.maxEntries} entries`);
    const entryName = entry.fileName;
    const unsafe = unsafeName(entryName);
    if (unsafe !== null) throw refuse(entryName, unsafe);
    if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) throw refuse(entryName, 'a symbolic link');
    if (entry.isEncrypted()) throw refuse(entryName, 'encrypted');
    const target = resolve(root, entryName);
    const inside = relative(root, target);
    if (inside === '' && entryName.endsWith('/')) return;
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) throw refuse(entryName, 'outside the folder');
    const top = join(root, inside.split(/[\\/]/)[0]!);
    if (!made.has(top) && !(await exists(top))) made.add(top);
    if (entryName.endsWith('/')) {
      await mkdir(target, { recursive: true });
      return;
    }
    const declared = entry.uncompressedSize;
    const bomb = (size: number) =>
      size > bounds.ratioFloorBytes && size > bounds.maxRatio * Math.max(entry.compressedSize, 1);
    if (bomb(declared)) throw refuse(entryName, `inflates past ${bounds.maxRatio} times its compressed size`);
    if (bytes + declared > bounds.maxBytes) throw badRequest(`${name}: unpacks to more than ${bounds.maxBytes} bytes`);
    await mkdir(dirname(target), { recursive: true });
    let written = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, next) {
        written += chunk.length;
        bytes += chunk.length;
        if (bomb(written)) next(refuse(entryName, `inflates past ${bounds.maxRatio} times its compressed size`));
        else if (bytes > bounds.maxBytes) next(badRequest(`${name}: unpacks to more than ${bounds.maxBytes} bytes`));
        else next(null, chunk);
      },
    });
    try {
      await pipeline(await openEntry(zip, entry), counter, createWriteStream(target));
    } catch (error) {
      throw error instanceof AppError ? error : refuse(entryName, (error as Error).message);
    }
    files += 1;
  };

  try {
    await new Promise<void>((done, fail) => {
      let failed = false;
      const stop = (error: unknown) => {
        if (failed) return;
        failed = true;
        // autoClose may have closed it already at the last entry.
        if (zip.isOpen) zip.close();
        fail(error);
      };
      zip.on('error', (error: Error) => stop(badRequest(`${name}: ${error.message}`)));
      zip.on('end', () => {
        if (!failed) done();
      });
      zip.on('entry', (entry: Entry) => {
        write(entry).then(() => {
          if (!failed) zip.readEntry();
        }, stop);
      });
      zip.readEntry();
    });
  } catch (error) {
    await Promise.all([...made].map((path) => rm(path, { recursive: true, force: true })));
    throw error;
  }
  return { files, bytes };
}
