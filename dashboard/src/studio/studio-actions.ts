// Spelled out rather than imported from useStudio, which would bring the editor's JSX into the server's type check.
type Kind = 'post' | 'page';

export interface StatusAction {
  to: string;
  label: string;
}

/** Status moves of contract §5 (posts.rules.ts MOVES) as the buttons a writer presses. */
export const ACTIONS: Record<Kind, Record<string, StatusAction[]>> = {
  post: {
    draft: [
      { to: 'published', label: 'Publish' },
      { to: 'archived', label: 'Archive' },
    ],
    published: [
      { to: 'draft', label: 'Unpublish to draft' },
      { to: 'archived', label: 'Archive' },
    ],
    archived: [{ to: 'draft', label: 'Restore to draft' }],
    scheduled: [],
  },
  page: { draft: [{ to: 'published', label: 'Publish' }], published: [{ to: 'draft', label: 'Unpublish to draft' }] },
};

/**
 * The bar's main button: a move forward (`to`), for what is live already a save under the name "Update", or for a
 * writer who may not publish, the draft submitted for review (`submit`).
 */
export type PrimaryAction = { label: string; to?: string; submit?: true };

/**
 * What a writer most likely wants next from this status: publish a draft, update a published copy, bring an
 * archived one back. Leaving the site (unpublish, archive) is never the main button; null when no move is open.
 */
export function primaryAction(kind: Kind, status: string): PrimaryAction | null {
  if (status === 'published') return { label: 'Update' };
  const forward = (ACTIONS[kind][status] ?? []).find((action) => action.to === 'published' || status === 'archived');
  return forward ?? null;
}

/** The moves the bar does not offer, for the settings' Publish panel. */
export function secondaryActions(kind: Kind, status: string): StatusAction[] {
  const primary = primaryAction(kind, status);
  return (ACTIONS[kind][status] ?? []).filter((action) => action.to !== primary?.to);
}
