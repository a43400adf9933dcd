import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { kebabCase } from '@quire/blocks';
import { firstFreeSlug, idOrSlugKey, isUuid, SLUG_MAX_LENGTH, SLUG_PATTERN, slugFrom } from './slug.js';

const SLUG = new RegExp(SLUG_PATTERN);

describe('kebabCase', () => {
  it('folds accents, lowercases and joins words with single hyphens', () => {
    expect(kebabCase('Café & Crème brûlée!')).toBe('cafe-creme-brulee');
    expect(kebabCase('  Hello,   World  ')).toBe('hello-world');
    expect(kebabCase('Ünïcödé 2024')).toBe('unicode-2024');
    // NFKD has no decomposition for ß, so by the rule of contract §6 it is a separator like any other.
    expect(kebabCase('Straße')).toBe('stra-e');
    expect(kebabCase('already-kebab-case')).toBe('already-kebab-case');
    expect(kebabCase('--a--b--')).toBe('a-b');
  });

  it('is empty for punctuation only, whitespace only and the empty string', () => {
    expect(kebabCase('!!! ??? ---')).toBe('');
    expect(kebabCase('   ')).toBe('');
    expect(kebabCase('')).toBe('');
  });
});

describe('slugFrom', () => {
  it('uses the kebab case of the text, and the fallback when that is empty', () => {
    expect(slugFrom('My First Post', 'post')).toBe('my-first-post');
    expect(slugFrom('¡¿…!', 'post')).toBe('post');
  });

  it('never returns a UUID-shaped string', () => {
    for (const uuid of [
      crypto.randomUUID(),
      crypto.randomUUID().toUpperCase(),
      crypto.randomUUID().replaceAll('-', ''),
    ]) {
      const slug = slugFrom(uuid, 'post');
      expect(isUuid(slug), slug).toBe(false);
      expect(slug).toMatch(SLUG);
    }
    expect(isUuid(slugFrom('', crypto.randomUUID()))).toBe(false);
  });

  it('cuts a long text on a word boundary within the limit', () => {
    const words = Array.from({ length: 100 }, (_, i) => `word${i}`).join(' ');
    const slug = slugFrom(words, 'post');
    expect(slug.length).toBeLessThanOrEqual(SLUG_MAX_LENGTH);
    expect(slug).toMatch(SLUG);
    expect(kebabCase(words).startsWith(`${slug}-`)).toBe(true);
  });

  it('cuts a single overlong word within the limit', () => {
    const slug = slugFrom('a'.repeat(500), 'post');
    expect(slug.length).toBeGreaterThan(0);
    expect(slug.length).toBeLessThanOrEqual(SLUG_MAX_LENGTH);
    expect(slug).toMatch(SLUG);
  });

  it('stays within the limit and the slug pattern at every length around it', () => {
    for (let length = SLUG_MAX_LENGTH - 10; length <= SLUG_MAX_LENGTH + 10; length += 1) {
      for (const text of [
        'x'.repeat(length),
        `${'ab-'.repeat(length)}`.slice(0, length),
        `${'a'.repeat(length - 2)} b`,
      ]) {
        const slug = slugFrom(text, 'post');
        expect(slug.length, text).toBeLessThanOrEqual(SLUG_MAX_LENGTH);
        expect(slug, text).toMatch(SLUG);
      }
    }
  });
});

describe('firstFreeSlug', () => {
  /** An isTaken over a fixed set, recording each batch it was asked about. */
  function takenFrom(taken: Iterable<string>) {
    const set = new Set(taken);
    const batches: string[][] = [];
    return {
      batches,
      isTaken: async (candidates: string[]) => {
        batches.push(candidates);
        return new Set(candidates.filter((candidate) => set.has(candidate)));
      },
    };
  }

  it('returns the base when it is free', async () => {
    expect(await firstFreeSlug('post', takenFrom([]).isTaken)).toBe('post');
  });

  it('returns base-2, base-3 … as the earlier ones are taken', async () => {
    expect(await firstFreeSlug('post', takenFrom(['post']).isTaken)).toBe('post-2');
    expect(await firstFreeSlug('post', takenFrom(['post', 'post-2']).isTaken)).toBe('post-3');
    // A gap is filled before going higher.
    expect(await firstFreeSlug('post', takenFrom(['post', 'post-3']).isTaken)).toBe('post-2');
    // Only the base's own suffixes count: another slug that looks alike takes nothing.
    expect(await firstFreeSlug('post', takenFrom(['post', 'post-2-2']).isTaken)).toBe('post-2');
  });

  it('asks again beyond the first batch when every candidate in it is taken', async () => {
    const taken = ['post', ...Array.from({ length: 29 }, (_, i) => `post-${i + 2}`)];
    const probe = takenFrom(taken);
    expect(await firstFreeSlug('post', probe.isTaken)).toBe('post-31');
    expect(probe.batches.length).toBeGreaterThan(1);
    expect(probe.batches.flat()).not.toContain('post-1');
  });

  it('doubles its batches, so a name used a thousand times costs a few queries', async () => {
    const taken = ['post', ...Array.from({ length: 999 }, (_, i) => `post-${i + 2}`)];
    const probe = takenFrom(taken);
    expect(await firstFreeSlug('post', probe.isTaken)).toBe('post-1001');
    expect(probe.batches.map((batch) => batch.length)).toEqual([20, 40, 80, 160, 320, 640]);
    expect(new Set(probe.batches.flat()).size).toBe(probe.batches.flat().length);
  });
});

describe('idOrSlugKey', () => {
  it('names a row by id for a UUID (lower-cased at validation already) and by slug for anything else, as given', () => {
    const id = crypto.randomUUID();
    expect(idOrSlugKey(id)).toEqual({ column: 'id', value: id });
    expect(idOrSlugKey('my-post')).toEqual({ column: 'slug', value: 'my-post' });
    // Not a UUID (one digit short), so a slug, and kept as it came: slugs are compared exactly.
    expect(idOrSlugKey(id.slice(0, -1).toUpperCase())).toEqual({
      column: 'slug',
      value: id.slice(0, -1).toUpperCase(),
    });
  });
});
