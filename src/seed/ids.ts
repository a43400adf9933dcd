import crypto from 'node:crypto';

/**
 * A UUIDv4-shaped id for the `index`th seeded row of a kind. Hashed rather than drawn from the
 * 32-bit-seeded PRNG so that a million ids cannot collide; the workspace id is part of the input
 * because ids are primary keys across all workspaces, while the content itself is the same for
 * every workspace seeded with the same N. Any post's id is known without generating the others,
 * which lets a post name related posts by index.
 */
export function seededId(workspaceId: string, kind: string, index: number): string {
  const bytes = crypto.createHash('sha256').update(`quire-seed:${workspaceId}:${kind}:${index}`).digest();
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
