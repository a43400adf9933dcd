import { describe, expect, it } from 'vitest';
import { serializerCompiler } from './serialization.js';

describe('serializerCompiler', () => {
  const serialize = serializerCompiler({
    schema: {
      type: 'object',
      properties: {
        mediaId: { anyOf: [{ type: 'string', format: 'uuid' }, { type: 'null' }] },
        author: { anyOf: [{ type: 'null' }, { type: 'object', properties: { name: { type: 'string' } } }] },
        either: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
        block: { oneOf: [{ type: 'object' }], discriminator: { propertyName: 'type' } },
        status: {
          anyOf: [
            { const: 'draft', type: 'string' },
            { const: 'published', type: 'string' },
          ],
        },
        level: {
          anyOf: [
            { const: 2, type: 'number' },
            { const: 3, type: 'number' },
          ],
        },
        mixed: {
          anyOf: [
            { const: 'auto', type: 'string' },
            { const: 1, type: 'number' },
          ],
        },
      },
    },
  });

  it('writes X | null unions as X or null, in either order', () => {
    expect(JSON.parse(serialize({ mediaId: null, author: null }))).toEqual({ mediaId: null, author: null });
    const id = '0c6a2b3e-0000-4000-8000-000000000000';
    expect(JSON.parse(serialize({ mediaId: id, author: { name: 'Ada', secret: 'x' } }))).toEqual({
      mediaId: id,
      author: { name: 'Ada' },
    });
  });

  it('keeps other unions, and writes a discriminated union as the stored JSON', () => {
    expect(JSON.parse(serialize({ either: 3 }))).toEqual({ either: 3 });
    expect(JSON.parse(serialize({ either: 'three' }))).toEqual({ either: 'three' });
    const block = { type: 'paragraph', text: 'Hello', extra: [1] };
    expect(JSON.parse(serialize({ block }))).toEqual({ block });
  });

  it('writes a union of literals of one type as that type, and literals of several types as they are', () => {
    expect(JSON.parse(serialize({ status: 'published', level: 3 }))).toEqual({ status: 'published', level: 3 });
    expect(JSON.parse(serialize({ status: 'a "quoted" one', level: 2.5 }))).toEqual({
      status: 'a "quoted" one',
      level: 2.5,
    });
    expect(JSON.parse(serialize({ mixed: 'auto' }))).toEqual({ mixed: 'auto' });
    expect(JSON.parse(serialize({ mixed: 1 }))).toEqual({ mixed: 1 });
  });
});
