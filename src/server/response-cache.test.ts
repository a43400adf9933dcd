import { describe, expect, it } from 'vitest';
import { ResponseCache, type CachedResponse } from './response-cache.js';

const answer = (bytes: number): CachedResponse => ({
  payload: Buffer.alloc(bytes),
  etag: '"x"',
  contentType: 'application/json',
  permission: undefined,
});

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

  it("drops a workspace's older versions once a newer one is stored, and refuses older ones after", () => {
    const cache = new ResponseCache(800);
    cache.set('w1\n1\n/posts', answer(100));
    cache.set('w1\n1\n/tags', answer(100));
    cache.set('w2\n1\n/posts', answer(100));
    cache.set('w1\n2\n/posts', answer(100));
    expect(cache.get('w1\n1\n/posts')).toBeUndefined();
    expect(cache.get('w1\n1\n/tags')).toBeUndefined();
    expect(cache.get('w2\n1\n/posts')).toBeDefined();
    expect(cache.get('w1\n2\n/posts')).toBeDefined();
    expect(cache.bytes).toBe(200);
    // A request that read version 1 before the write answers after it: not kept.
    cache.set('w1\n1\n/authors', answer(100));
    expect(cache.get('w1\n1\n/authors')).toBeUndefined();
    expect(cache.bytes).toBe(200);
    // Version 10 after 9 compares as a number.
    cache.set('w1\n9\n/a', answer(100));
    cache.set('w1\n10\n/a', answer(100));
    expect(cache.get('w1\n10\n/a')).toBeDefined();
    expect(cache.bytes).toBe(200);
  });

  it('forgets a workspace whose entries were all evicted, then takes any version of it', () => {
    const cache = new ResponseCache(800);
    cache.set('w1\n5\n/a', answer(100));
    for (let i = 0; i < 8; i += 1) cache.set(`w2\n1\n/k${i}`, answer(100));
    expect(cache.get('w1\n5\n/a')).toBeUndefined();
    cache.set('w1\n4\n/a', answer(100));
    expect(cache.get('w1\n4\n/a')).toBeDefined();
  });

  it('still drops an entry stored while making room evicted the rest of its workspace', () => {
    const cache = new ResponseCache(800);
    cache.set('w1\n1\n/a', answer(100));
    for (let i = 0; i < 7; i += 1) cache.set(`w2\n1\n/k${i}`, answer(100));
    cache.set('w1\n1\n/b', answer(100));
    expect(cache.get('w1\n1\n/a')).toBeUndefined();
    cache.set('w1\n2\n/c', answer(100));
    expect(cache.get('w1\n1\n/b')).toBeUndefined();
    expect(cache.get('w1\n2\n/c')).toBeDefined();
  });
});
