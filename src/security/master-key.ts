import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The server-side key that encrypts stored API keys, and its id (stored beside every ciphertext). */
export interface MasterKey {
  id: string;
  key: Buffer;
}

/** A master key's id: a fingerprint that names it without revealing it, so a rotation can tell keys apart. */
export function masterKeyId(key: Buffer): string {
  return crypto.createHash('sha256').update('quire-master-key-id:').update(key).digest('hex').slice(0, 16);
}

export function masterKeyFrom(key: Buffer): MasterKey {
  return { id: masterKeyId(key), key };
}

/**
 * Reads `<dataDir>/master.key` (base64 of 32 bytes), creating it with mode 0600 on first start.
 * The key is written whole to a private temporary file and then hard-linked into place: the link
 * either creates master.key complete or fails because it exists, so two processes starting together
 * agree on one key and neither can read a half-written file.
 */
export function loadOrCreateMasterKeyFile(dataDir: string): MasterKey {
  const file = path.join(dataDir, 'master.key');
  if (!fs.existsSync(file)) {
    const temporary = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    fs.writeFileSync(temporary, `${crypto.randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    try {
      fs.linkSync(temporary, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.unlinkSync(temporary);
    }
  }
  const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} must hold the base64 encoding of exactly 32 bytes`);
  return masterKeyFrom(key);
}
