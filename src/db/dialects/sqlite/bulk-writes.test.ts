import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqlite } from './driver.js';

describe('a SQLite connection for bulk writes', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-sqlite-bulk-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('checkpoints its WAL a hundred times less often; any other keeps SQLite’s default', () => {
    const bulk = openSqlite(path.join(dir, 'a.sqlite'), { bulkWrites: true });
    const plain = openSqlite(path.join(dir, 'a.sqlite'));
    expect(bulk.pragma('wal_autocheckpoint', { simple: true })).toBe(100_000);
    expect(plain.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    expect(bulk.pragma('journal_mode', { simple: true })).toBe('wal');
    bulk.close();
    plain.close();
  });
});
