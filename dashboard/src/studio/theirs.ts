import type { Page, Pending, Post } from '../types';
import { withChanges } from './pending-fields';
import { fieldsOf, type EditableFields } from './post-fields';

type Kind = 'post' | 'page';

/** After a save or an Update refused as out of date: the other side, to compare and merge with (ConflictPanel). */
export interface Theirs {
  /**
   * What moved: `live` the live version (someone saved the post itself), `set` the pending set (another writer
   * saved changes that are not live either), `gone` the set this editor was saving to (applied or discarded
   * elsewhere).
   */
  reason: 'live' | 'set' | 'gone';
  /** The copy the writer's edits started from. */
  base: EditableFields;
  /** Their copy: the live version now, with the other writer's pending changes in it when there are some. */
  fields: EditableFields;
  /** When theirs was saved; a merge is saved only while theirs is still this one. */
  version: string;
  /** The live version now: what the merged copy is saved on. */
  live: Post | Page;
  /** The pending set on the server now, which the merged copy's save replaces. */
  set: Pending | null;
  /** Who saved their pending changes. */
  by: Pending['updatedBy'] | null;
}

/**
 * Theirs, from the server's copies now. `origin` is the live version the writer's edits started from and `known`
 * the pending set they last read or saved: when the set on the server is another, the writer's copy started from
 * the live version with `known` in it.
 */
export function theirsOf(
  kind: Kind,
  origin: EditableFields,
  known: Pending | null,
  live: Post | Page,
  set: Pending | null,
): Theirs {
  const theirSet = set && set.updatedAt !== known?.updatedAt ? set : null;
  const moved = (set?.updatedAt ?? null) !== (known?.updatedAt ?? null);
  const liveFields = fieldsOf(kind, live);
  return {
    reason: theirSet ? 'set' : moved ? 'gone' : 'live',
    base: moved && known ? withChanges(kind, origin, known.changes) : origin,
    fields: theirSet ? withChanges(kind, liveFields, theirSet.changes) : liveFields,
    version: theirSet ? theirSet.updatedAt : live.updatedAt,
    live,
    set,
    by: theirSet?.updatedBy ?? null,
  };
}
