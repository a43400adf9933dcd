import { describe, expect, it } from 'vitest';
import { generateKey, hashKey, isWellFormedKey, KEY_BRAND, KEY_PREFIX_LENGTH, keyPrefix } from './key-token.js';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SHAPE = /^quire_live_[0-9A-Za-z]{38}$/;

describe('generateKey', () => {
  it('has the brand, 32 random and 6 checksum base62 characters, and passes its own check', () => {
    for (let i = 0; i < 100; i += 1) {
      const key = generateKey();
      expect(key).toMatch(SHAPE);
      expect(isWellFormedKey(key)).toBe(true);
    }
  });

  it('never repeats itself: 1,000 keys are distinct', () => {
    const keys = new Set(Array.from({ length: 1000 }, generateKey));
    expect(keys.size).toBe(1000);
  });
});

describe('keyPrefix', () => {
  it('is the first 18 characters: the brand and 7 characters of the random part', () => {
    const key = generateKey();
    const prefix = keyPrefix(key);
    expect(KEY_PREFIX_LENGTH).toBe(18);
    expect(prefix).toHaveLength(18);
    expect(prefix.startsWith(KEY_BRAND)).toBe(true);
    expect(KEY_BRAND).toBe('quire_live_');
    expect(key.startsWith(prefix)).toBe(true);
  });
});

describe('isWellFormedKey', () => {
  it('refuses every single-character change in the random part or the checksum', () => {
    for (let round = 0; round < 3; round += 1) {
      const key = generateKey();
      for (let position = KEY_BRAND.length; position < key.length; position += 1) {
        for (const replacement of ALPHABET) {
          if (replacement === key[position]) continue;
          const altered = `${key.slice(0, position)}${replacement}${key.slice(position + 1)}`;
          expect(isWellFormedKey(altered), altered).toBe(false);
        }
      }
    }
  });

  it('refuses another brand, another length and characters outside base62', () => {
    const key = generateKey();
    const body = key.slice(KEY_BRAND.length);
    for (const candidate of [
      `quire_test_${body}`,
      `QUIRE_LIVE_${body}`,
      `quire_live${body}`,
      body,
      key.slice(0, -1),
      `${key}0`,
      `${key.slice(0, 20)}0${key.slice(20)}`,
      `${key.slice(0, 20)}-${key.slice(21)}`,
      ` ${key}`,
      `${key}\n`,
      '',
      KEY_BRAND,
    ]) {
      expect(isWellFormedKey(candidate), JSON.stringify(candidate)).toBe(false);
    }
  });

  it('accepts a key only with the checksum computed from its own random part', () => {
    const [first, second] = [generateKey(), generateKey()];
    const swapped = `${first.slice(0, -6)}${second.slice(-6)}`;
    expect(isWellFormedKey(swapped)).toBe(false);
  });
});

describe('hashKey', () => {
  it('is the SHA-256 of the key, in lowercase hex', () => {
    // The FIPS 180-2 test vector for "abc".
    expect(hashKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const key = generateKey();
    expect(hashKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashKey(key)).toBe(hashKey(key));
    expect(hashKey(key)).not.toBe(hashKey(generateKey()));
  });
});
