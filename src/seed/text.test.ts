import { describe, expect, it } from 'vitest';
import { Random } from './random.js';
import { titleCase, Writer } from './text.js';
import { DOMAINS } from './topics.js';

describe('Writer', () => {
  const writer = (seed: string) =>
    new Writer(new Random(seed), DOMAINS.tech, 'database indexing', 'query optimization');

  it('writes the same prose for the same seed', () => {
    expect(writer('a').paragraph()).toBe(writer('a').paragraph());
    expect(writer('a').paragraph()).not.toBe(writer('b').paragraph());
  });

  it('fills every slot, capitalises, and picks "an" before a vowel sound', () => {
    const sentences = Object.values(DOMAINS).flatMap((domain) => {
      const w = new Writer(new Random(`slots:${domain.name}`), domain, 'a topic', 'another topic');
      return Array.from({ length: 300 }, () => w.sentence());
    });
    for (const sentence of sentences) {
      expect(sentence).not.toMatch(/[{}]/);
      expect(sentence).toMatch(/^[A-Z]/);
      expect(sentence).not.toMatch(/\ba (?!one|once|eu|us|uni|ut)[aeiou]/i);
      expect(sentence).not.toMatch(/\ban [bcdfgjklmnpqrstvwz]/i);
    }
    expect(writer('fill').fill('a {x} and a {y}', { x: 'idempotent API', y: 'useful hour' })).toBe(
      'An idempotent API and a useful hour',
    );
  });

  it('title-cases, keeping acronyms and small inner words', () => {
    expect(titleCase('a guide to CI/CD and the API of choice')).toBe('A Guide to CI/CD and the API of Choice');
    expect(titleCase('is it worth it? an honest look')).toBe('Is It Worth It? An Honest Look');
  });
});
