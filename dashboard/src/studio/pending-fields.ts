import { canonical } from './merge.js';
import { changedFields, emptyOf, fieldsFor, type EditableFields } from './post-fields.js';

type Kind = 'post' | 'page';

/**
 * The editor's fields of a live post or page with a pending set's changes put in: what Update would make it.
 * A set names fields as a PATCH does, and a post's tags as `tagIds`, the studio's own name for them.
 */
export function withChanges(kind: Kind, live: EditableFields, changes: Record<string, unknown>): EditableFields {
  const values = { ...live } as unknown as Record<string, unknown>;
  for (const field of fieldsFor(kind))
    if (field.name in changes) values[field.name] = changes[field.name] ?? emptyOf(field.kind);
  return values as unknown as EditableFields;
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((item) => b.includes(item));

/**
 * A pending set's `changes`: every field that differs from the live version, and the whole list of tags when
 * they differ (a set holds what Update writes at once, not the tag routes' additions and removals).
 */
export function pendingChanges(kind: Kind, fields: EditableFields, live: EditableFields): Record<string, unknown> {
  const changes = changedFields(kind, fields, live);
  if (kind === 'post' && !sameSet(fields.tagIds, live.tagIds)) changes.tagIds = fields.tagIds;
  return changes;
}

export const sameChanges = (a: Record<string, unknown>, b: Record<string, unknown>) => canonical(a) === canonical(b);
