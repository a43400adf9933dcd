import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isEmptyQuery, MAX_STORED_WORDS_LENGTH, MAX_WORD_LENGTH, searchWords, wordQuery } from './search-words.js';

describe('searchWords', () => {
  it('keeps each distinct word once, folded, in the order of its first appearance', () => {
    expect(searchWords('Hello, World! hello', 'ÉTÉ — café 100% snake_case')).toBe(
      'hello world été café 100 snake case',
    );
  });

  it('composes decomposed letters and keeps letters of every script', () => {
    expect(searchWords('cafe\u0301 Straße Ωμέγα привет')).toBe('café straße ωμέγα привет');
  });

  it('makes each Han, Hiragana and Katakana character a word of its own', () => {
    expect(searchWords('東京タワーに行く 2024年')).toBe('東 京 タ ワ ー に 行 く 2024 年');
  });

  it('cuts a word at 64 characters and stops before 200,000 characters of words', () => {
    expect(searchWords('x'.repeat(MAX_WORD_LENGTH + 10))).toBe('x'.repeat(MAX_WORD_LENGTH));
    const many = Array.from({ length: 40_000 }, (_, n) => `w${n.toString(36)}x`).join(' ');
    const stored = searchWords(many);
    expect(stored.length).toBeLessThanOrEqual(MAX_STORED_WORDS_LENGTH);
    expect(stored.length).toBeGreaterThan(MAX_STORED_WORDS_LENGTH - MAX_WORD_LENGTH - 1);
    expect(stored.startsWith('w0x w1x ')).toBe(true);
  });

  it('stores nothing for a text without words', () => {
    expect(searchWords('— … !!', null, undefined, '')).toBe('');
  });

  it('never stores an empty word, a doubled space or a character outside a word (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme' })), (fields) => {
        const stored = searchWords(...fields);
        if (stored === '') return;
        for (const word of stored.split(' ')) {
          expect(word).toMatch(/^[\p{L}\p{N}\p{M}]+$/u);
          expect([...word].length).toBeLessThanOrEqual(MAX_WORD_LENGTH);
        }
      }),
    );
  });
});

describe('wordQuery', () => {
  it('takes the last word as a prefix and the others whole', () => {
    expect(wordQuery('Engine ROOM')).toEqual({ whole: ['engine'], prefix: 'room' });
    expect(wordQuery('tim')).toEqual({ whole: [], prefix: 'tim' });
  });

  it('takes the last word whole when the query ends after it', () => {
    expect(wordQuery('time ')).toEqual({ whole: ['time'], prefix: undefined });
    expect(wordQuery('100%')).toEqual({ whole: ['100'], prefix: undefined });
  });

  it('finds a query of no words empty', () => {
    expect(isEmptyQuery(wordQuery('% _ —'))).toBe(true);
    expect(isEmptyQuery(wordQuery('a'))).toBe(false);
  });

  it('folds, composes and cuts as the stored words do', () => {
    expect(wordQuery('CAFE\u0301')).toEqual({ whole: [], prefix: 'café' });
    expect(wordQuery(`${'y'.repeat(70)} z`)).toEqual({ whole: ['y'.repeat(MAX_WORD_LENGTH)], prefix: 'z' });
    expect(wordQuery('東京')).toEqual({ whole: ['東'], prefix: '京' });
  });

  it('asks once for a repeated word', () => {
    expect(wordQuery('a b a b')).toEqual({ whole: ['a', 'b'], prefix: undefined });
    expect(wordQuery('time tim time')).toEqual({ whole: ['time', 'tim'], prefix: undefined });
  });

  it('a stored text is found by any of its words, whole or begun (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme' }), { minLength: 1 }), fc.nat(), (fields, pick) => {
        const stored = searchWords(...fields)
          .split(' ')
          .filter(Boolean);
        if (stored.length === 0) return;
        const word = stored[pick % stored.length]!;
        const query = wordQuery(word);
        expect(stored).toContain(query.prefix);
      }),
    );
  });
});
