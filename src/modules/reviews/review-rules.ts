/**
 * What the server holds a review to and the dashboard offers alike (docs/team.md, "Review"): kept apart from the
 * schemas so the dashboard takes them without TypeBox.
 */

/** States a reviewer may still decide on; a decision on any other is a 409 `review_closed`. */
export const OPEN_STATES = ['in_review', 'changes_requested'] as const;
export const isOpen = (state: string): boolean => (OPEN_STATES as readonly string[]).includes(state);

/** The longest comment, note or decision's words. */
export const COMMENT_MAX_LENGTH = 5000;
