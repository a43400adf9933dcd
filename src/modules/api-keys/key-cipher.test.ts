import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { masterKeyFrom } from '../../security/master-key.js';
import { decryptKey, encryptKey } from './key-cipher.js';
import { generateKey } from '../../security/key-token.js';

const master = masterKeyFrom(crypto.randomBytes(32));
const keyId = crypto.randomUUID();
const workspaceId = crypto.randomUUID();

/** The stored form with one bit of byte `index` flipped. */
function flipped(stored: string, index: number): string {
  const raw = Buffer.from(stored, 'base64');
  raw[index] = raw[index]! ^ 0x01;
  return raw.toString('base64');
}

describe('encryptKey / decryptKey', () => {
  it('round-trips a key', () => {
    const plaintext = generateKey();
    const stored = encryptKey(master, plaintext, keyId, workspaceId);
    expect(decryptKey(master, stored, keyId, workspaceId)).toBe(plaintext);
  });

  it('stores base64 of a 12-byte IV, the ciphertext and a 16-byte tag, and never the plaintext', () => {
    const plaintext = generateKey();
    const stored = encryptKey(master, plaintext, keyId, workspaceId);
    expect(Buffer.from(stored, 'base64')).toHaveLength(12 + Buffer.byteLength(plaintext) + 16);
    expect(stored).not.toContain(plaintext.slice(11));
    expect(Buffer.from(stored, 'base64').toString('latin1')).not.toContain(plaintext.slice(11));
  });

  it('uses a fresh IV each time: the same key encrypts differently twice', () => {
    const plaintext = generateKey();
    expect(encryptKey(master, plaintext, keyId, workspaceId)).not.toBe(
      encryptKey(master, plaintext, keyId, workspaceId),
    );
  });

  it('fails for another key id or another workspace id (the associated data)', () => {
    const stored = encryptKey(master, generateKey(), keyId, workspaceId);
    expect(() => decryptKey(master, stored, crypto.randomUUID(), workspaceId)).toThrow();
    expect(() => decryptKey(master, stored, keyId, crypto.randomUUID())).toThrow();
    expect(() => decryptKey(master, stored, workspaceId, keyId)).toThrow();
  });

  it('fails when any byte was altered: IV, ciphertext or tag', () => {
    const stored = encryptKey(master, generateKey(), keyId, workspaceId);
    const length = Buffer.from(stored, 'base64').length;
    for (let index = 0; index < length; index += 1) {
      expect(() => decryptKey(master, flipped(stored, index), keyId, workspaceId), `byte ${index}`).toThrow();
    }
  });

  it('fails when the stored value was cut short, even to a short tag', () => {
    const stored = encryptKey(master, generateKey(), keyId, workspaceId);
    const raw = Buffer.from(stored, 'base64');
    for (const length of [0, 4, 12, 15, 16, 27, 28, raw.length - 1, raw.length - 4, raw.length - 12]) {
      expect(
        () => decryptKey(master, raw.subarray(0, length).toString('base64'), keyId, workspaceId),
        `${length} bytes`,
      ).toThrow();
    }
  });

  it('fails under another master key', () => {
    const stored = encryptKey(master, generateKey(), keyId, workspaceId);
    const other = masterKeyFrom(crypto.randomBytes(32));
    expect(() => decryptKey(other, stored, keyId, workspaceId)).toThrow();
  });
});
