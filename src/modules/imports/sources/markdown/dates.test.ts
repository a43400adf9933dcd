import { describe, expect, it } from 'vitest';
import { datedName, parseDate } from './dates.js';

const iso = (value: unknown) => parseDate(value)?.toISOString() ?? null;

describe('parseDate', () => {
  it('reads the shapes the generators write', () => {
    expect(iso('2024-01-02')).toBe('2024-01-02T00:00:00.000Z');
    expect(iso('2024-01-02T10:00:00+01:00')).toBe('2024-01-02T09:00:00.000Z');
    expect(iso('2024-01-02T10:00:00Z')).toBe('2024-01-02T10:00:00.000Z');
    expect(iso('2024-01-02T10:00:00.5-05:00')).toBe('2024-01-02T15:00:00.500Z');
    expect(iso('2024-01-02 10:00:00 +0100')).toBe('2024-01-02T09:00:00.000Z');
    expect(iso('2024-01-02 10:00')).toBe('2024-01-02T10:00:00.000Z');
    expect(iso('Jul 08 2022')).toBe('2022-07-08T00:00:00.000Z');
    expect(iso('July 8, 2022')).toBe('2022-07-08T00:00:00.000Z');
    expect(iso(new Date('2023-05-06T07:08:09Z'))).toBe('2023-05-06T07:08:09.000Z');
  });

  it('refuses what names no day', () => {
    for (const value of ['someday', '2024-02-30', '2024-13-01', '1/2/3', '', 42, null, new Date(Number.NaN)])
      expect(iso(value)).toBeNull();
  });
});

describe('datedName', () => {
  it('splits a Jekyll post name into its day and its slug', () => {
    expect(datedName('2024-01-02-hello-world')).toEqual({ date: '2024-01-02', rest: 'hello-world' });
    expect(datedName('hello-world')).toBeNull();
  });
});
