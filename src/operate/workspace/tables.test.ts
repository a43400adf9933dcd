import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { computed, fieldList, json, stored } from '../../db/columns.js';
import { Nullable, Timestamp, Uuid } from '../../shared/schemas.js';
import { archivedColumns } from './tables.js';

describe('archivedColumns', () => {
  it("types each column a field stands for by the field's schema, in the fields' order", () => {
    const fields = fieldList({
      id: { answer: Uuid, columns: ['id'] },
      embedded: { answer: Type.Object({ a: Type.String() }) },
      title: { answer: Type.String(), write: Type.String({ maxLength: 9 }), column: stored('title') },
      kind: {
        answer: Type.Union([Type.Literal('a'), Type.Literal('b')]),
        write: Type.Union([Type.Literal('a'), Type.Literal('b')]),
        column: stored('kind'),
      },
      ownerId: { answer: Nullable(Uuid), write: Nullable(Uuid), column: stored('owner_id') },
      body: {
        answer: Type.Array(Type.String()),
        write: Type.Array(Type.String()),
        column: computed(),
        columns: ['body_json'],
      },
      words: { answer: Type.Integer(), columns: ['word_count', 'minutes'] },
      live: { answer: Type.Boolean(), columns: ['is_live'] },
      meta: { answer: Nullable(Type.Object({})), write: Nullable(Type.Object({})), column: json('meta') },
      note: {
        answer: Nullable(Type.String()),
        write: Nullable(Type.String()),
        column: stored('note'),
        archivedSince: 3,
      },
      ids: { write: Type.Array(Uuid), column: computed() },
      deletedAt: { answer: Nullable(Timestamp), columns: ['deleted_at'] },
    });
    expect(Object.entries(archivedColumns(fields))).toEqual([
      ['id', { type: 'uuid' }],
      ['title', { type: 'text' }],
      ['kind', { type: 'text' }],
      ['owner_id', { type: 'uuid', nullable: true }],
      ['body_json', { type: 'json' }],
      ['word_count', { type: 'integer' }],
      ['minutes', { type: 'integer' }],
      ['is_live', { type: 'boolean' }],
      ['meta', { type: 'json', nullable: true }],
      ['note', { type: 'text', nullable: true, absentAsNull: true }],
      ['deleted_at', { type: 'timestamp', nullable: true }],
    ]);
  });
});
