import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import tar from 'tar-stream';
import { afterAll, describe, expect, it } from 'vitest';
import { ArchiveError, FORMAT_VERSION, type ArchiveHeader } from './format.js';
import { openArchive, type ArchiveEntry } from './reader.js';
import { ArchiveWriter } from './writer.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-archive-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const header = (version = '1.0'): ArchiveHeader => ({
  format: 'quire-workspace',
  version,
  createdAt: '2026-01-01T00:00:00.000Z',
  writtenBy: 'test',
});

async function* pages<T>(...batches: T[][]) {
  yield* batches;
}

async function write(name: string, version?: string): Promise<string> {
  const file = path.join(dir, name);
  const writer = await ArchiveWriter.create(file, header(version));
  await writer.rows('tags', pages([{ id: 'a', name: 'A' }], [{ id: 'b', name: 'B' }]));
  const bytes = Buffer.from('file bytes');
  await writer.file('files/x/y.png', bytes.length, Readable.from([bytes]));
  await writer.rows('redirects', pages([{ id: 'r' }]));
  await writer.finish();
  return file;
}

async function readEverything(file: string): Promise<Array<ArchiveEntry | { file: string; text: string }>> {
  const archive = await openArchive(file, 'quire-workspace');
  const seen: Array<ArchiveEntry | { file: string; text: string }> = [];
  try {
    for await (const entry of archive.entries) {
      if (entry.kind === 'rows') seen.push(entry);
      else {
        const parts: Buffer[] = [];
        for await (const chunk of entry.chunks) parts.push(chunk);
        seen.push({ file: entry.name, text: Buffer.concat(parts).toString() });
      }
    }
  } finally {
    archive.close();
  }
  return seen;
}

/** The archive's tar entries, decompressed, for tests that damage one. */
async function entriesOf(file: string): Promise<Array<{ name: string; body: Buffer }>> {
  const extract = tar.extract();
  fs.createReadStream(file).pipe(zlib.createGunzip()).pipe(extract);
  const entries: Array<{ name: string; body: Buffer }> = [];
  for await (const entry of extract) {
    const parts: Buffer[] = [];
    for await (const chunk of entry) parts.push(chunk as Buffer);
    entries.push({ name: entry.header.name, body: Buffer.concat(parts) });
  }
  return entries;
}

async function repack(file: string, entries: Array<{ name: string; body: Buffer }>): Promise<void> {
  const pack = tar.pack();
  for (const entry of entries) pack.entry({ name: entry.name }, entry.body);
  pack.finalize();
  const parts: Buffer[] = [];
  for await (const chunk of pack) parts.push(chunk as Buffer);
  fs.writeFileSync(file, zlib.gzipSync(Buffer.concat(parts)));
}

async function refusal(file: string): Promise<string> {
  const error = await readEverything(file).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ArchiveError);
  return (error as Error).message;
}

describe('archives', () => {
  it('give back the rows and files written, in order', async () => {
    const file = await write('good.tgz');
    expect(await readEverything(file)).toEqual([
      {
        kind: 'rows',
        table: 'tags',
        rows: [
          { id: 'a', name: 'A' },
          { id: 'b', name: 'B' },
        ],
      },
      { file: 'files/x/y.png', text: 'file bytes' },
      { kind: 'rows', table: 'redirects', rows: [{ id: 'r' }] },
    ]);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('refuse a truncated archive, whatever byte it stops at', async () => {
    const good = fs.readFileSync(await write('whole.tgz'));
    for (const keep of [good.length - 1, Math.floor(good.length / 2), 30]) {
      const file = path.join(dir, `cut-${keep}.tgz`);
      fs.writeFileSync(file, good.subarray(0, keep));
      expect(await refusal(file)).toMatch(/damaged: .*(truncated|ends early|not a readable)/);
    }
  });

  it('refuse an archive cut at an entry boundary, before its trailer', async () => {
    const file = await write('boundary.tgz');
    await repack(file, (await entriesOf(file)).slice(0, -1));
    expect(await refusal(file)).toMatch(/ends before its closing entry .* \(truncated\)/);
  });

  it('refuse an archive whose entry was modified, added or removed', async () => {
    const file = await write('edited.tgz');
    const entries = await entriesOf(file);
    const edited = entries.map((e) =>
      e.name.startsWith('tables/tags/') ? { ...e, body: Buffer.from(e.body.toString().replace('"A"', '"Z"')) } : e,
    );
    await repack(file, edited);
    expect(await refusal(file)).toMatch(/tables\/tags\/000001\.ndjson does not match the checksum .* \(modified\)/);

    await repack(file, [...entries.slice(0, -1), { name: 'files/extra', body: Buffer.from('x') }, entries.at(-1)!]);
    expect(await refusal(file)).toMatch(/files\/extra is not in the list of entries/);

    await repack(
      file,
      entries.filter((e) => e.name !== 'files/x/y.png'),
    );
    expect(await refusal(file)).toMatch(/lacks 1 of its entries \(files\/x\/y\.png/);
  });

  it('refuse a newer major version and read a newer minor one', async () => {
    const { major, minor } = FORMAT_VERSION['quire-workspace'];
    const newer = await write('major.tgz', `${major + 1}.0`);
    await expect(openArchive(newer, 'quire-workspace')).rejects.toThrow(
      new RegExp(`is format ${major + 1}\\.0, written by a newer Quire \\(test\\); this Quire reads ${major}\\.x`),
    );
    const minorNewer = await write('minor.tgz', `${major}.${minor + 1}`);
    const archive = await openArchive(minorNewer, 'quire-workspace');
    expect(archive.newerMinor).toBe(true);
    archive.close();
  });

  it('refuse a backup given to import, and a file that is no archive', async () => {
    const file = await write('kind.tgz');
    await expect(openArchive(file, 'quire-backup')).rejects.toThrow(/is a workspace export, not a Quire backup/);
    const text = path.join(dir, 'text.tgz');
    fs.writeFileSync(text, 'hello');
    await expect(openArchive(text, 'quire-workspace')).rejects.toThrow(/damaged: it is not a readable/);
    await expect(openArchive(path.join(dir, 'absent.tgz'), 'quire-workspace')).rejects.toThrow(/does not exist/);
  });
});
