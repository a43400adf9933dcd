import { describe, expect, it } from 'vitest';
import { readabilityScore, syllableCount, textStatistics } from './readability.js';

describe('syllableCount', () => {
  it('follows the documented heuristic', () => {
    expect(syllableCount('the')).toBe(1);
    expect(syllableCount('cake')).toBe(1);
    expect(syllableCount('table')).toBe(2);
    expect(syllableCount('readability')).toBe(5);
    expect(syllableCount('measured')).toBe(2);
    expect(syllableCount('formulas')).toBe(3);
    expect(syllableCount('beautiful')).toBe(3);
    expect(syllableCount('rhythm')).toBe(1);
    expect(syllableCount('Über')).toBe(2);
    expect(syllableCount('2026')).toBe(1);
  });
});

describe('textStatistics', () => {
  it('counts sentences at terminators and line breaks, ignoring segments without words', () => {
    expect(textStatistics('One two. Three!  Four?\n\nFive six\n\n---')).toEqual({
      words: 6,
      sentences: 4,
      syllables: 6,
    });
    expect(textStatistics('Version 1.5 is out')).toMatchObject({ words: 4, sentences: 1 });
    expect(textStatistics('')).toEqual({ words: 0, sentences: 1, syllables: 0 });
  });
});

describe('readabilityScore', () => {
  it('is 0 for a text without words', () => {
    expect(readabilityScore('')).toBe(0);
    expect(readabilityScore(' \n\n — ')).toBe(0);
  });

  it('clamps to 100: "The cat sat on the mat." is 206.835 − 1.015×6 − 84.6×1 = 116.1', () => {
    expect(readabilityScore('The cat sat on the mat.')).toBe(100);
  });

  it('clamps to 0: 5 words, 12 syllables is 206.835 − 5.075 − 203.04 = −1.3', () => {
    expect(readabilityScore('Readability is measured with formulas.')).toBe(0);
  });

  it('rounds: 11 words, 2 sentences, 18 syllables is 206.835 − 1.015×5.5 − 84.6×18/11 = 62.8 → 63', () => {
    expect(readabilityScore('The cat sat on the mat. Readability is measured with formulas.')).toBe(63);
  });
});
