import type { Writer } from '../security/writer.js';
import type { ChangeAction } from './changes.js';
import type { Snapshot } from './kinds.js';

/**
 * Revision windows: a studio that saves a draft at every pause would fill the history with one revision a
 * pause and push the real steps out of the kept ones. So a draft's saves by one writer stay one revision, its
 * window, for QUIRE_REVISION_WINDOW_SECONDS from the first save it holds: each later one overwrites it.
 *
 * A revision is open, `opened_at` set, only when it is a draft's update by a writer that is not a step of its
 * own (a restore). Whether a later save merges into it is then read from that one column: a creation, a
 * publish, an unpublish, an archive, a save of a post that is not a draft, a restore, a revision from before
 * migration 0026 or from an archive are all closed (null) as they are written, with no rule that has to
 * remember each of them when a save comes.
 */

/** The newest revision of a resource, as far as a save needs it to know whether it merges into it. */
export interface NewestRevision {
  n: number;
  action: string;
  actor_user_id: string | null;
  actor_api_key_id: string | null;
  opened_at: string | null;
}

/** The `opened_at` of a revision written now: now when a later save by its writer may merge into it, else null. */
export function openedAt(
  action: ChangeAction,
  snapshot: Pick<Snapshot, 'status'>,
  writer: Writer,
  now: string,
): string | null {
  return action === 'updated' && snapshot.status === 'draft' && !writer.ownRevision ? now : null;
}

/**
 * Whether a save that would open a window (`openedAt` not null) merges into the resource's newest revision
 * instead: that one is open, by the same user and key (null the same as null: the command line, a dashboard
 * session), and opened less than the window ago. Only a draft's update is ever open; the action is checked all
 * the same, so that what the history shows as a creation, a publish or an archive is never written over.
 */
export function mergesInto(
  newest: NewestRevision | undefined,
  writer: Writer,
  now: string,
  windowSeconds: number,
): newest is NewestRevision {
  if (!newest || newest.opened_at === null || newest.action !== 'updated') return false;
  if (newest.actor_user_id !== writer.userId || newest.actor_api_key_id !== writer.apiKeyId) return false;
  return Date.parse(now) - Date.parse(newest.opened_at) < windowSeconds * 1000;
}
