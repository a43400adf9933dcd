import crypto from 'node:crypto';
import type { MasterKey } from '../../security/master-key.js';
import { decryptSecret, encryptSecret } from '../api-keys/key-cipher.js';

const PREFIX = 'whsec_';
const SECRET_BYTES = 32;

/** A new signing secret: `whsec_` and the base64 of random bytes, as Standard Webhooks libraries read it. */
export function generateSecret(): string {
  return `${PREFIX}${crypto.randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** Bound to its endpoint and workspace, so a ciphertext copied to another row does not decrypt. */
function binding(endpointId: string, workspaceId: string): string {
  return `quire-webhook-secret:${endpointId}:${workspaceId}`;
}

export function encryptWebhookSecret(master: MasterKey, secret: string, endpointId: string, workspaceId: string) {
  return encryptSecret(master, secret, binding(endpointId, workspaceId));
}

export function decryptWebhookSecret(master: MasterKey, stored: string, endpointId: string, workspaceId: string) {
  return decryptSecret(master, stored, binding(endpointId, workspaceId));
}

/**
 * The Standard Webhooks signature header value: `v1,` and the base64 HMAC-SHA256, keyed by the secret's
 * decoded bytes, of `id.timestamp.body`.
 */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  return `v1,${crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}
