import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { masterKeyFrom } from './master-key.js';
import { readReviewToken, reviewToken } from './review-token.js';

const master = masterKeyFrom(crypto.randomBytes(32));

describe('review tokens', () => {
  it('read back the id they were made from, and the same id always makes the same token', () => {
    const id = crypto.randomUUID();
    const token = reviewToken(master, id);
    expect(token).toMatch(/^quire_review_[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
    expect(reviewToken(master, id)).toBe(token);
    expect(readReviewToken(master, token)).toBe(id);
  });

  it('are refused when tampered with, signed under another master key, or not tokens at all', () => {
    const token = reviewToken(master, crypto.randomUUID());
    const [body, signature] = token.slice('quire_review_'.length).split('.') as [string, string];
    const other = Buffer.from(crypto.randomUUID().replaceAll('-', ''), 'hex').toString('base64url');
    for (const candidate of [
      `quire_review_${other}.${signature}`,
      // A last character other than the one signed: a fixed replacement would leave some tokens as they were.
      `quire_review_${body}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`,
      `quire_review_${body}`,
      `quire_review_${body}.${signature}.x`,
      `quire_review_${body}.${signature.slice(0, -1)}é`,
      token.replace('quire_review_', 'quire_preview'),
      token.toUpperCase(),
      '',
      `quire_review_${'a'.repeat(700)}`,
    ])
      expect(readReviewToken(master, candidate), candidate).toBeNull();
    expect(readReviewToken(masterKeyFrom(crypto.randomBytes(32)), token)).toBeNull();
  });

  it('are made from lower-case UUIDs only', () => {
    expect(() => reviewToken(master, 'not-an-id')).toThrow(TypeError);
    expect(() => reviewToken(master, crypto.randomUUID().toUpperCase())).toThrow(TypeError);
  });
});
