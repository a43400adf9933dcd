import crypto from 'node:crypto';
import type { MasterKey } from '../../security/master-key.js';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The associated data binds a ciphertext to its row: moved to another key row or workspace, it no
 * longer authenticates and decryption fails.
 */
function associatedData(keyId: string, workspaceId: string): string {
  return `quire-api-key:${keyId}:${workspaceId}`;
}

/**
 * AES-256-GCM under the master key; the stored form is base64 of iv ‖ ciphertext ‖ tag. `binding` is the
 * associated data that names the row (and the kind of secret) the ciphertext belongs to.
 */
export function encryptSecret(master: MasterKey, plaintext: string, binding: string): string {
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv('aes-256-gcm', master.key, iv);
  cipher.setAAD(Buffer.from(binding, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64');
}

/** Throws when the ciphertext was altered, bound to another row, or sealed under another master key. */
export function decryptSecret(master: MasterKey, stored: string, binding: string): string {
  const raw = Buffer.from(stored, 'base64');
  const iv = raw.subarray(0, IV_BYTES);
  const tag = raw.subarray(raw.length - TAG_BYTES);
  const body = raw.subarray(IV_BYTES, raw.length - TAG_BYTES);
  const decipher = crypto.createDecipheriv('aes-256-gcm', master.key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(binding, 'utf8'));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
}

export function encryptKey(master: MasterKey, plaintext: string, keyId: string, workspaceId: string): string {
  return encryptSecret(master, plaintext, associatedData(keyId, workspaceId));
}

export function decryptKey(master: MasterKey, stored: string, keyId: string, workspaceId: string): string {
  return decryptSecret(master, stored, associatedData(keyId, workspaceId));
}
