import crypto from 'node:crypto';
import zlib from 'node:zlib';

/*
 * Plaintext keys: `quire_live_` + 32 random base62 characters + a 6-character base62 CRC32 of those 32
 * (GitHub's token pattern). Secret scanners can match the shape, and a key that fails the checksum is
 * refused before any database work.
 */
export const KEY_BRAND = 'quire_live_';
/** A content key (docs/content-api.md): read-only, meant to be held by a site or a browser. */
export const CONTENT_KEY_BRAND = 'quire_content_';
export type KeyBrand = typeof KEY_BRAND | typeof CONTENT_KEY_BRAND;
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
export const KEY_PREFIX_LENGTH = 18;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const shapeOf = (brand: KeyBrand) => new RegExp(`^${brand}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);
const SHAPES: Record<KeyBrand, RegExp> = {
  [KEY_BRAND]: shapeOf(KEY_BRAND),
  [CONTENT_KEY_BRAND]: shapeOf(CONTENT_KEY_BRAND),
};

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

export function generateKey(brand: KeyBrand = KEY_BRAND): string {
  const random = randomBase62(RANDOM_LENGTH);
  return `${brand}${random}${checksum(random)}`;
}

/** True when the string has the key's shape and its checksum matches: the only check before the database. */
export function isWellFormedKey(candidate: string, brand: KeyBrand = KEY_BRAND): boolean {
  if (!SHAPES[brand].test(candidate)) return false;
  const random = candidate.slice(brand.length, brand.length + RANDOM_LENGTH);
  return candidate.slice(brand.length + RANDOM_LENGTH) === checksum(random);
}

export function hashKey(key: string): string {
  return crypto.hash('sha256', key, 'hex');
}

/** What a list shows of a key: its brand and the first characters of its random part. */
export function keyPrefix(key: string): string {
  const brand = key.startsWith(CONTENT_KEY_BRAND) ? CONTENT_KEY_BRAND : KEY_BRAND;
  return key.slice(0, brand.length + KEY_PREFIX_LENGTH - KEY_BRAND.length);
}
