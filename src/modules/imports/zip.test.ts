import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { unpackZip } from './zip.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'quire-zip-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Entry {
  name: string;
  data?: Buffer | string;
  mode?: number;
  compress?: boolean;
}

/** A zip written by yazl, as bytes. */
function zipBytes(entries: Entry[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const entry of entries) {
    if (entry.name.endsWith('/')) zip.addEmptyDirectory(entry.name);
    else
      zip.addBuffer(Buffer.from(entry.data ?? 'x'), entry.name, {
        ...(entry.mode === undefined ? {} : { mode: entry.mode }),
        compress: entry.compress ?? true,
      });
  }
  zip.end();
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => done(Buffer.concat(chunks)));
    zip.outputStream.on('error', fail);
  });
}

/** Every occurrence of `from` (in the local header and the central directory) replaced by bytes of equal length. */
function patch(bytes: Buffer, from: string, to: string): Buffer {
  const out = Buffer.from(bytes);
  const needle = Buffer.from(from);
  const replacement = Buffer.from(to);
  expect(replacement.length).toBe(needle.length);
  let at = out.indexOf(needle);
  expect(at).toBeGreaterThanOrEqual(0);
  while (at >= 0) {
    replacement.copy(out, at);
    at = out.indexOf(needle, at + 1);
  }
  return out;
}

async function write(bytes: Buffer, name = 'in.zip'): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return path;
}

const into = () => join(dir, 'out');

describe('unpackZip', () => {
  it('unpacks files and folders, UTF-8 names included, and counts them', async () => {
    const file = await write(
      await zipBytes([
        { name: 'export.json', data: '{"db":[]}' },
        { name: 'content/' },
        { name: 'content/images/2024/01/café 🍰.jpg', data: 'jpeg' },
        { name: 'content/images/שלום.png', data: 'png' },
      ]),
    );
    const result = await unpackZip(file, into());
    expect(result).toEqual({ files: 3, bytes: 9 + 4 + 3 });
    expect(await readFile(join(into(), 'content/images/2024/01/café 🍰.jpg'), 'utf8')).toBe('jpeg');
    expect(await readFile(join(into(), 'content/images/שלום.png'), 'utf8')).toBe('png');
  });

  it('refuses a file that is not a zip, naming it', async () => {
    const file = await write(Buffer.from('{"db": []}'), 'export.json');
    await expect(unpackZip(file, into())).rejects.toMatchObject({ code: 'BAD_REQUEST', message: /export\.json/ });
  });

  it.each([
    ['a ".." segment', 'AAAevil', '../evil'],
    ['an absolute path', 'Aetc/passwd', '/etc/passwd'],
    ['a drive letter', 'CC/evil.txt', 'C:/evil.txt'],
    ['a backslash escaping', 'AAAevil', '..\\evil'],
  ])('refuses the whole zip for %s and removes what it unpacked', async (_why, placeholder, evil) => {
    const bytes = patch(
      await zipBytes([
        { name: 'first/ok.txt', data: 'ok' },
        { name: placeholder, data: 'pwned' },
      ]),
      placeholder,
      evil,
    );
    const file = await write(bytes);
    await expect(unpackZip(file, into())).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining(evil.replace('\\', '/').replace(/^C:/, 'C:')) as string,
    });
    expect(await readdir(into())).toEqual([]);
    expect(await readdir(dir)).toEqual(['in.zip', 'out']);
  });

  it('refuses a symbolic link entry', async () => {
    const file = await write(await zipBytes([{ name: 'link', data: '/etc/passwd', mode: 0o120777 }]));
    await expect(unpackZip(file, into())).rejects.toMatchObject({ message: /"link".*symbolic link/ });
  });

  it('refuses an encrypted entry', async () => {
    const bytes = await zipBytes([{ name: 'secret.txt', data: 'secret', compress: false }]);
    // The general purpose flag's bit 0, in the local header (offset 6) and the central directory entry (8).
    const out = Buffer.from(bytes);
    const local = out.indexOf(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    const central = out.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    out[local + 6] = out[local + 6]! | 1;
    out[central + 8] = out[central + 8]! | 1;
    const file = await write(out);
    await expect(unpackZip(file, into())).rejects.toMatchObject({ message: /secret\.txt.*encrypted/ });
  });

  it('refuses more entries than the bound', async () => {
    const file = await write(await zipBytes([{ name: 'a' }, { name: 'b' }, { name: 'c' }]));
    await expect(unpackZip(file, into(), { maxEntries: 2 })).rejects.toMatchObject({ message: /more than 2 entries/ });
    expect(await readdir(into())).toEqual([]);
  });

  it('refuses more bytes in all than the bound', async () => {
    const file = await write(
      await zipBytes([
        { name: 'a', data: 'a'.repeat(600) },
        { name: 'b', data: 'b'.repeat(600) },
      ]),
    );
    await expect(unpackZip(file, into(), { maxBytes: 1000 })).rejects.toMatchObject({ message: /more than 1000/ });
  });

  it('refuses a zip bomb by its ratio, counting the bytes inflated rather than the sizes declared', async () => {
    const zeros = Buffer.alloc(1024 * 1024);
    const honest = await write(await zipBytes([{ name: 'bomb.bin', data: zeros }]), 'honest.zip');
    await expect(unpackZip(honest, into(), { ratioFloorBytes: 100_000 })).rejects.toMatchObject({
      message: /bomb\.bin.*200 times/,
    });
    // The same bomb declaring 1,000 bytes unpacked in its central directory (offset 24): refused all the same.
    const lying = Buffer.from(await readFile(honest));
    const central = lying.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    lying.writeUInt32LE(1000, central + 24);
    const file = await write(lying, 'lying.zip');
    await expect(unpackZip(file, into(), { ratioFloorBytes: 100_000 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: /bomb\.bin/,
    });
    // Below the floor, a high ratio is an ordinary file of zeros.
    expect(await unpackZip(honest, join(dir, 'fine'))).toEqual({ files: 1, bytes: zeros.length });
  });
});
