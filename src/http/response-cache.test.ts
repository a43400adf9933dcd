import { describe, expect, it } from 'vitest';
import { ResponseCache, type CachedResponse } from './response-cache.js';

const answer = (bytes: number): CachedResponse => ({ payload: Buffer.alloc(bytes), etag: '"x"', contentType: 'application/json', permission: undefined });

describe('ResponseCache', () => {
  it('holds at most maxBytes, refusing an answer above an eighth of it', () => {
    const cache = new ResponseCache(800);
    cache.set('big', answer(101));
    expect(cache.get('big')).toBeUndefined();
    for (let i = 0; i < 20; i += 1) cache.set(`k${i}`, answer(100));
    expect(cache.bytes).toBeLessThanOrEqual(800);
    expect(cache.get('k19')).toBeDefined();
    expect(cache.get('k0')).toBeUndefined();
  });

  it('evicts the oldest entry not read since, and keeps one that was', () => {
    const cache = new ResponseCache(800);
    for (let i = 0; i < 8; i += 1) cache.set(`k${i}`, answer(100));
    expect(cache.get('k0')).toBeDefined();
    cache.set('k8', answer(100));
    expect(cache.get('k0')).toBeDefined();
    expect(cache.get('k1')).toBeUndefined();
    expect(cache.bytes).toBe(800);
  });

  it('ends when every entry has been read', () => {
    const cache = new ResponseCache(800);
    for (let i = 0; i < 8; i += 1) cache.set(`k${i}`, answer(100));
    for (let i = 0; i < 8; i += 1) cache.get(`k${i}`);
    cache.set('k8', answer(100));
    expect(cache.bytes).toBe(800);
    expect(cache.get('k8')).toBeDefined();
  });

  it('replaces an entry under the same key without counting it twice', () => {
    const cache = new ResponseCache(800);
    cache.set('k', answer(100));
    cache.set('k', answer(50));
    expect(cache.bytes).toBe(50);
  });
});
