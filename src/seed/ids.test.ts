import { describe, expect, it } from 'vitest';
import { seededId } from './ids.js';

describe('seededId', () => {
  it('derives UUIDv4-shaped ids that differ by workspace, kind and index', () => {
    const id = seededId('w1', 'post', 0);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(seededId('w1', 'post', 0)).toBe(id);
    expect(new Set([id, seededId('w2', 'post', 0), seededId('w1', 'media', 0), seededId('w1', 'post', 1)]).size).toBe(
      4,
    );
  });
});
