import { describe, expect, it } from 'vitest';
import { ResponseCache, type CachedResponse } from './response-cache.js';

const answer = (bytes: number): CachedResponse => ({
  payload: Buffer.alloc(bytes),
  etag: '"x"',
  contentType: 'application/json',
  permission: undefined,
});

/** A key as the cache makes them: workspace, content version, URL. */
const at = (url: string, workspace = 'w', version = 1) => `${workspace}\n${version}\n/${url}`;

describe('ResponseCache', () => {
  it('holds at most maxBytes, refusing an answer above an eighth of it', () => {
    const cache = new ResponseCache(800);
    cache.set(at('big'), answer(101));
    expect(cache.get(at('big'))).toBeUndefined();
    for (let i = 0; i < 20; i += 1) cache.set(at(`k${i}`), answer(100));
    expect(cache.bytes).toBeLessThanOrEqual(800);
    expect(cache.get(at('k19'))).toBeDefined();
    expect(cache.get(at('k0'))).toBeUndefined();
  });

  it('evicts the oldest entry not read since, and keeps one that was', () => {
    const cache = new ResponseCache(800);
    for (let i = 0; i < 8; i += 1) cache.set(at(`k${i}`), answer(100));
    expect(cache.get(at('k0'))).toBeDefined();
    cache.set(at('k8'), answer(100));
    expect(cache.get(at('k0'))).toBeDefined();
    expect(cache.get(at('k1'))).toBeUndefined();
    expect(cache.bytes).toBe(800);
  });

  it('ends when every entry has been read', () => {
    const cache = new ResponseCache(800);
    for (let i = 0; i < 8; i += 1) cache.set(at(`k${i}`), answer(100));
    for (let i = 0; i < 8; i += 1) cache.get(at(`k${i}`));
    cache.set(at('k8'), answer(100));
    expect(cache.bytes).toBe(800);
    expect(cache.get(at('k8'))).toBeDefined();
  });

  it('replaces an entry under the same key without counting it twice', () => {
    const cache = new ResponseCache(800);
    cache.set(at('k'), answer(100));
    cache.set(at('k'), answer(50));
    expect(cache.bytes).toBe(50);
    expect(cache.bytesOf('w')).toBe(50);
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
    expect(cache.bytesOf('w1')).toBe(100);
  });

  it('forgets a workspace whose entries were all evicted, then takes any version of it', () => {
    const cache = new ResponseCache(800);
    // Eight workspaces of one entry each fill it; a ninth's entry takes the oldest's room.
    for (let w = 1; w <= 8; w += 1) cache.set(at('a', `w${w}`, 5), answer(100));
    cache.set(at('a', 'w9'), answer(100));
    expect(cache.get(at('a', 'w1', 5))).toBeUndefined();
    expect(cache.bytesOf('w1')).toBe(0);
    cache.set(at('a', 'w1', 4), answer(100));
    expect(cache.get(at('a', 'w1', 4))).toBeDefined();
  });

  it('still drops an entry stored while making room evicted the rest of its workspace', () => {
    const cache = new ResponseCache(800);
    for (let w = 1; w <= 8; w += 1) cache.set(at('a', `w${w}`), answer(100));
    // w1's second entry puts it over its share: its own first one makes the room.
    cache.set(at('b', 'w1'), answer(100));
    expect(cache.get(at('a', 'w1'))).toBeUndefined();
    expect(cache.get(at('a', 'w2'))).toBeDefined();
    cache.set(at('c', 'w1', 2), answer(100));
    expect(cache.get(at('b', 'w1'))).toBeUndefined();
    expect(cache.get(at('c', 'w1', 2))).toBeDefined();
  });

  it("gives each workspace its share: one walking a thousand URLs evicts its own answers, not a quiet one's", () => {
    const cache = new ResponseCache(8_000);
    for (let i = 0; i < 5; i += 1) cache.set(at(`hot${i}`, 'quiet'), answer(100));
    for (let i = 0; i < 1_000; i += 1) cache.set(at(`page${i}`, 'busy'), answer(100));
    for (let i = 0; i < 5; i += 1) expect(cache.get(at(`hot${i}`, 'quiet'))).toBeDefined();
    expect(cache.bytesOf('quiet')).toBe(500);
    expect(cache.bytesOf('busy')).toBe(7_500);
    // The walker's newest answers are what it keeps.
    expect(cache.get(at('page999', 'busy'))).toBeDefined();
    expect(cache.get(at('page0', 'busy'))).toBeUndefined();
  });

  it('lets a workspace under its share take room from the one over it', () => {
    const cache = new ResponseCache(8_000);
    for (let i = 0; i < 1_000; i += 1) cache.set(at(`page${i}`, 'busy'), answer(100));
    for (let i = 0; i < 30; i += 1) cache.set(at(`hot${i}`, 'quiet'), answer(100));
    for (let i = 0; i < 30; i += 1) expect(cache.get(at(`hot${i}`, 'quiet'))).toBeDefined();
    expect(cache.bytesOf('busy')).toBe(5_000);
    expect(cache.bytes).toBe(8_000);
  });

  it("counts an encoding kept beside an answer in its workspace's share, and not once the answer is evicted", () => {
    const cache = new ResponseCache(8_000);
    const held = answer(100);
    cache.set(at('a', 'w1'), held);
    const gzip = cache.encoded(held, 'gzip');
    expect(cache.bytesOf('w1')).toBe(100 + gzip.length);
    expect(cache.bytes).toBe(100 + gzip.length);
    cache.set(at('a', 'w1', 2), answer(100));
    const evicted = answer(100);
    cache.encoded(evicted, 'br');
    expect(cache.bytesOf('w1')).toBe(100);
    expect(cache.bytes).toBe(100);
  });
});
