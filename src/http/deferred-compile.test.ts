import { describe, expect, it } from 'vitest';
import { compilePending, deferCompile } from './deferred-compile.js';

describe('deferCompile', () => {
  it('compiles on first use, once', () => {
    let compiles = 0;
    const get = deferCompile(() => {
      compiles += 1;
      return (n: number) => n * 2;
    });
    expect(compiles).toBe(0);
    expect(get()(2)).toBe(4);
    expect(get()(3)).toBe(6);
    expect(compiles).toBe(1);
  });

  it('compilePending compiles what no request has needed yet, and nothing twice', () => {
    let compiles = 0;
    const get = deferCompile(() => {
      compiles += 1;
      return 'compiled';
    });
    expect(compilePending()).toBeGreaterThanOrEqual(1);
    expect(compiles).toBe(1);
    expect(get()).toBe('compiled');
    expect(compilePending()).toBe(0);
    expect(compiles).toBe(1);
  });
});
