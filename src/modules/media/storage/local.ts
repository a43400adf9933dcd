import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { assertStorageKey, type MediaStorage } from './driver.js';

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Files under `root` (`<QUIRE_DATA_DIR>/media`). A file is written under `.tmp/` first and renamed
 * into place, so a reader never sees half a file and a failed upload leaves nothing at its key.
 */
export function localStorage(root: string): MediaStorage {
  const tmpDir = path.join(root, '.tmp');
  const pathOf = (key: string) => {
    assertStorageKey(key);
    return path.join(root, ...key.split('/'));
  };

  return {
    async put(key, body) {
      const target = pathOf(key);
      await fs.promises.mkdir(tmpDir, { recursive: true });
      const temp = path.join(tmpDir, crypto.randomUUID());
      try {
        await pipeline(body, fs.createWriteStream(temp, { flags: 'wx', mode: 0o640 }));
        await fs.promises.mkdir(path.dirname(target), { recursive: true });
        await fs.promises.rename(temp, target);
      } catch (error) {
        await fs.promises.rm(temp, { force: true });
        throw error;
      }
    },

    async get(key, range) {
      const file = pathOf(key);
      try {
        const { size } = await fs.promises.stat(file);
        return { size, stream: fs.createReadStream(file, range ? { start: range.start, end: range.end } : {}) };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },

    async delete(key) {
      const file = pathOf(key);
      await fs.promises.rm(file, { force: true });
      // The media's own directory goes too; the workspace's stays (other uploads may be landing in it).
      await fs.promises.rmdir(path.dirname(file)).catch((error: unknown) => {
        if (!isMissing(error) && (error as NodeJS.ErrnoException).code !== 'ENOTEMPTY') throw error;
      });
    },
  };
}
