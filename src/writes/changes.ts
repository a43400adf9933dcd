/** The resources a content write can change; `settings` is the workspace's site settings. */
export type ResourceType = 'post' | 'page' | 'media' | 'author' | 'category' | 'tag' | 'redirect' | 'settings';

/**
 * What happened to the resource. A status move of a post or page is named for where it went (`published`,
 * `unpublished` when it leaves published, `archived`); `attached`/`detached` are tags put on or taken off a
 * post; every other change of a live resource is `updated`.
 */
export type ChangeAction =
  'created' | 'updated' | 'published' | 'unpublished' | 'archived' | 'deleted' | 'attached' | 'detached';

/** One resource a write changed: it becomes one content event (migration 0011). */
export interface Change {
  type: ResourceType;
  id: string;
  /** The slug it has after the write (before it, for a deletion); null for resources without one. */
  slug: string | null;
  action: ChangeAction;
  /**
   * A write of a post or page keeps a revision of it (writes/revisions.ts) unless it deletes it or only moves
   * its tags. `false` only where the write brings the resource's revisions along (an archive's import).
   */
  revision?: false;
}

/**
 * Who writes, as the change events record it: a key's creator and the key, a dashboard user (no key), or
 * the command line (neither). An Actor is one.
 */
export interface Writer {
  workspaceId: string;
  userId: string | null;
  apiKeyId: string | null;
  /**
   * Takes the write's answer before the write commits. The HTTP layer serializes it here (http/sealed-answer.ts):
   * an answer that cannot be written out throws, and the write rolls back instead of committing behind a 500.
   */
  seal?: (answer: unknown) => void;
}

/** The command line writing into a workspace (`quire seed`, `quire workspace settings`). */
export function commandLine(workspaceId: string): Writer {
  return { workspaceId, userId: null, apiKeyId: null };
}

/** The action of a write that moves a post or page from one status to another. */
export function statusAction(from: string, to: string): ChangeAction {
  if (from === to) return 'updated';
  if (to === 'published') return 'published';
  if (to === 'archived') return 'archived';
  return from === 'published' ? 'unpublished' : 'updated';
}
