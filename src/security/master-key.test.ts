import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadOrCreateMasterKeyFile, masterKeyFrom, masterKeyId } from './master-key.js';

let dataDir: string;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-master-key-'));
});
afterEach(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('loadOrCreateMasterKeyFile', () => {
  it('creates master.key, readable by its owner only, holding base64 of 32 random bytes', () => {
    const master = loadOrCreateMasterKeyFile(dataDir);
    const file = path.join(dataDir, 'master.key');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(master.key).toHaveLength(32);
    expect(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64')).toEqual(master.key);
    expect(master.id).toBe(masterKeyId(master.key));
    // Nothing else is left behind in the data dir.
    expect(fs.readdirSync(dataDir)).toEqual(['master.key']);
  });

  it('returns the same key on every later call, and never rewrites the file', () => {
    const first = loadOrCreateMasterKeyFile(dataDir);
    const file = path.join(dataDir, 'master.key');
    const before = fs.readFileSync(file, 'utf8');
    const second = loadOrCreateMasterKeyFile(dataDir);
    expect(second.key).toEqual(first.key);
    expect(second.id).toBe(first.id);
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
  });

  it('creates a different key in another data dir', () => {
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-master-key-'));
    try {
      expect(loadOrCreateMasterKeyFile(other).key).not.toEqual(loadOrCreateMasterKeyFile(dataDir).key);
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });

  it('reads a key an operator put there', () => {
    const key = crypto.randomBytes(32);
    fs.writeFileSync(path.join(dataDir, 'master.key'), key.toString('base64'), { mode: 0o600 });
    expect(loadOrCreateMasterKeyFile(dataDir).key).toEqual(key);
  });

  it('refuses a file that does not hold exactly 32 bytes, naming the file', () => {
    const file = path.join(dataDir, 'master.key');
    for (const content of ['', crypto.randomBytes(16).toString('base64'), crypto.randomBytes(33).toString('base64')]) {
      fs.writeFileSync(file, content, { mode: 0o600 });
      expect(() => loadOrCreateMasterKeyFile(dataDir)).toThrow(file);
    }
  });
});

describe('masterKeyId', () => {
  it('is stable for one key and differs between keys', () => {
    const key = crypto.randomBytes(32);
    expect(masterKeyId(key)).toBe(masterKeyId(Buffer.from(key)));
    expect(masterKeyFrom(key).id).toBe(masterKeyId(key));
    expect(masterKeyId(crypto.randomBytes(32))).not.toBe(masterKeyId(key));
    expect(masterKeyId(key)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('does not reveal the key in any of its encodings', () => {
    const key = crypto.randomBytes(32);
    const id = masterKeyId(key);
    for (const encoding of ['hex', 'base64', 'base64url'] as const) {
      const encoded = key.toString(encoding);
      expect(encoded).not.toContain(id);
      expect(id).not.toContain(encoded.slice(0, 8));
    }
  });
});
