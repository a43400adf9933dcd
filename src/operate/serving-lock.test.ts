import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { holdMoveLock, holdServingLock } from './serving-lock.js';

describe('the serving lock of a SQLite data dir', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-serving-lock-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('is shared by servers and refuses a move while one holds it', () => {
    const first = holdServingLock(dataDir);
    const second = holdServingLock(dataDir);
    expect(() => holdMoveLock(dataDir)).toThrow(/is serving .*: what it writes during the copy would be lost; stop it/);
    first.release();
    expect(() => holdMoveLock(dataDir)).toThrow(/is serving/);
    second.release();
    holdMoveLock(dataDir).release();
  });

  it('keeps a server from starting while a move holds it, and lets it start once the move is done', () => {
    const move = holdMoveLock(dataDir);
    expect(() => holdServingLock(dataDir)).toThrow(
      /^quire migrate-to is copying the installation in .+ to PostgreSQL: let it finish, then start the server/,
    );
    move.release();
    holdServingLock(dataDir).release();
  });
});
