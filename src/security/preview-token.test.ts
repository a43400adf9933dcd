import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { masterKeyFrom } from './master-key.js';
import { issuePreviewToken, readPreviewToken } from './preview-token.js';

const master = masterKeyFrom(crypto.randomBytes(32));
const claims = { workspaceId: crypto.randomUUID(), kind: 'post' as const, id: crypto.randomUUID(), expiresAt: 2_000 };

describe('preview tokens', () => {
  it('read back what they were issued with, until they expire', () => {
    const token = issuePreviewToken(master, claims);
    expect(token).toMatch(/^quire_preview_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(readPreviewToken(master, token, 1_999)).toEqual(claims);
    expect(readPreviewToken(master, token, 2_000)).toBeNull();
  });

  it('are refused when tampered with, signed under another master key, or not tokens at all', () => {
    const token = issuePreviewToken(master, claims);
    const [body, signature] = token.slice('quire_preview_'.length).split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify({ w: claims.workspaceId, k: 'page', i: claims.id, e: 2_000 })).toString(
      'base64url',
    );
    for (const candidate of [
      `quire_preview_${forged}.${signature}`,
      // A last character other than the one signed: a fixed replacement would leave some tokens as they were.
      `quire_preview_${body}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`,
      `quire_preview_${body}`,
      `quire_preview_${body}.${signature}.x`,
      token.replace('quire_preview_', 'quire_content_'),
      '',
      `quire_preview_${'a'.repeat(700)}`,
    ])
      expect(readPreviewToken(master, candidate, 1_000), candidate).toBeNull();
    expect(readPreviewToken(masterKeyFrom(crypto.randomBytes(32)), token, 1_000)).toBeNull();
  });
});
