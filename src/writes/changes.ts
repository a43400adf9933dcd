import type { Writer } from '../security/writer.js';

/** The resources a content write can change; `settings` is the workspace's site settings. */
export type ResourceType = 'post' | 'page' | 'media' | 'author' | 'category' | 'tag' | 'redirect' | 'settings';

/**
 * What happened to the resource. A status move of a post or page is named for where it went (`published`,
 * `unpublished` when it leaves published, `archived`); `attached`/`detached` are tags put on or taken off a
 * post; every other change of a live resource is `updated`.
 */
export type ChangeAction =
  'created' | 'updated' | 'published' | 'unpublished' | 'archived' | 'deleted' | 'attached' | 'detached';

/** The actions that take a post or page out of publication, or out of existence: a site drops what it showed. */
export const WITHDRAWALS: readonly ChangeAction[] = ['unpublished', 'archived', 'deleted'];

interface ChangeFields {
  id: string;
  /** The slug it has after the write (before it, for a deletion); null for resources without one. */
  slug: string | null;
  /**
   * A write of a post or page keeps a revision of it (writes/revisions.ts) unless it deletes it or only moves
   * its tags. `false` where the write brings the resource's revisions along (an archive's import), and on the
   * publication that comes with a creation: the creation's revision is the write's one.
   */
  revision?: false;
}

/** A post or page goes live by its status, so creating one says the status it starts in. */
type Statused = 'post' | 'page';

/** One resource a write changed: it becomes one content event (migration 0011), or two (see `eventsOf`). */
export type Change = ChangeFields &
  (
    | { type: Statused; action: 'created'; status: string }
    | { type: Statused; action: Exclude<ChangeAction, 'created'>; status?: undefined }
    | { type: Exclude<ResourceType, Statused>; action: ChangeAction; status?: undefined }
  );

/** The command line writing into a workspace (`quire seed`, `quire workspace settings`). */
export function commandLine(workspaceId: string): Writer {
  return { workspaceId, userId: null, apiKeyId: null };
}

/** The action of a write that moves a post or page from one status to another. */
export function statusAction(from: string, to: string): 'updated' | 'published' | 'archived' | 'unpublished' {
  if (from === to) return 'updated';
  if (to === 'published') return 'published';
  if (to === 'archived') return 'archived';
  return from === 'published' ? 'unpublished' : 'updated';
}

/**
 * The content events one declared change records, in order. A post or page created as published goes live in
 * that write, so it is published as well as created, as a status move to published would say: a subscriber to
 * `post.published` hears of every post that goes live, however it got there.
 */
export function eventsOf(change: Change): Change[] {
  if (change.action !== 'created' || change.status === undefined) return [change];
  const action = statusAction('draft', change.status);
  if (action !== 'published') return [change];
  return [change, { type: change.type, id: change.id, slug: change.slug, action, revision: false }];
}
