import { describe, expect, it } from 'vitest';
import { SlugRegistry } from './posts.js';

describe('SlugRegistry', () => {
  it('claims slugs as the API derives them: base, base-2, base-3', () => {
    const slugs = new SlugRegistry();
    expect(['guide', 'guide', 'guide-2', 'guide'].map((base) => slugs.claim(base))).toEqual([
      'guide',
      'guide-2',
      'guide-2-2',
      'guide-3',
    ]);
  });
});
