import crypto from 'node:crypto';
import zlib from 'node:zlib';

/*
 * Plaintext keys: `quire_live_` + 32 random base62 characters + a 6-character base62 CRC32 of those 32
 * (GitHub's token pattern). Secret scanners can match the shape, and a key that fails the checksum is
 * refused before any database work.
 */
export const KEY_BRAND = 'quire_live_';
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
export const KEY_PREFIX_LENGTH = 18;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_SHAPE = new RegExp(`^${KEY_BRAND}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);

function base62(value: number, width: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < width; i += 1) {
    out = ALPHABET[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

function checksum(random: string): string {
  return base62(zlib.crc32(random), CHECKSUM_LENGTH);
}

function randomBase62(length: number): string {
  // Rejection sampling keeps every character uniformly likely (256 is not a multiple of 62).
  let out = '';
  while (out.length < length) {
    for (const byte of crypto.randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

export function generateKey(): string {
  const random = randomBase62(RANDOM_LENGTH);
  return `${KEY_BRAND}${random}${checksum(random)}`;
}

/** True when the string has the key's shape and its checksum matches: the only check before the database. */
export function isWellFormedKey(candidate: string): boolean {
  if (!KEY_SHAPE.test(candidate)) return false;
  const random = candidate.slice(KEY_BRAND.length, KEY_BRAND.length + RANDOM_LENGTH);
  return candidate.slice(KEY_BRAND.length + RANDOM_LENGTH) === checksum(random);
}

export function hashKey(key: string): string {
  return crypto.hash('sha256', key, 'hex');
}

export function keyPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX_LENGTH);
}
