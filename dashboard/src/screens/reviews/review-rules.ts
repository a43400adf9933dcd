import type { ReviewState } from '../../types.js';

/*
 * The dashboard's copy of the server's review rules (src/modules/reviews/review-rules.ts): taking them from there
 * failed a studio browser test, cause not found. test/dashboard/review-rules.test.ts holds the two equal, which is
 * why this module imports nothing the server's type check cannot follow.
 */

/** A reviewer may still decide on these; the server refuses a decision on the others (409 `review_closed`). */
export const OPEN: readonly ReviewState[] = ['in_review', 'changes_requested'];

/** The longest comment the server takes. */
export const COMMENT_MAX = 5000;
