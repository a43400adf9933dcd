import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { localStorage } from './local.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-storage-'));
const storage = localStorage(root);
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const read = async (stream: Readable) => Buffer.concat(await stream.toArray());
const filesUnder = (dir: string): string[] =>
  (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((d) => d.isFile())
    .map((d) => d.name);

/** A stream that sends `head` and then fails, as an upload refused half-way does. */
function failing(head: Buffer): Readable {
  return new Readable({
    read() {
      this.push(head);
      this.destroy(new Error('refused half-way'));
    },
  });
}

describe('local media storage', () => {
  it('writes under <root>/<key>, reads whole files and byte ranges, deletes', async () => {
    const key = 'ws-1/media-1/photo.png';
    await storage.put(key, Readable.from([Buffer.from('hello '), Buffer.from('world')]), { contentType: 'image/png' });
    expect(fs.readFileSync(path.join(root, 'ws-1', 'media-1', 'photo.png'), 'utf8')).toBe('hello world');

    const whole = await storage.get(key);
    expect(whole?.size).toBe(11);
    expect((await read(whole!.stream)).toString()).toBe('hello world');
    const range = await storage.get(key, { start: 6, end: 10 });
    expect(range?.size).toBe(11);
    expect((await read(range!.stream)).toString()).toBe('world');

    await storage.delete(key);
    expect(await storage.get(key)).toBeNull();
    expect(fs.existsSync(path.join(root, 'ws-1', 'media-1'))).toBe(false);
    await expect(storage.delete(key)).resolves.toBeUndefined();
  });

  it('a failed write leaves nothing: no file at the key, no temp file', async () => {
    const key = 'ws-2/media-2/broken.png';
    await expect(storage.put(key, failing(Buffer.alloc(1000, 1)), { contentType: 'image/png' })).rejects.toThrow(
      'refused half-way',
    );
    expect(await storage.get(key)).toBeNull();
    expect(filesUnder(root)).toEqual([]);
  });

  it('refuses keys that could leave the root', async () => {
    for (const key of [
      '../escape.png',
      'ws/../../escape.png',
      '/etc/passwd',
      'ws/./x.png',
      'ws//x.png',
      'ws/x y.png',
      '',
    ]) {
      await expect(
        storage.put(key, Readable.from([Buffer.from('x')]), { contentType: 'image/png' }),
        key,
      ).rejects.toThrow('Invalid storage key');
      await expect(storage.get(key), key).rejects.toThrow('Invalid storage key');
    }
  });
});
