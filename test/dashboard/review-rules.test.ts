import { expect, it } from 'vitest';
import { COMMENT_MAX, OPEN } from '../../dashboard/src/screens/reviews/review-rules.js';
import { COMMENT_MAX_LENGTH, OPEN_STATES } from '../../src/modules/reviews/review-rules.js';

it('the dashboard offers decisions on the states, and takes comments of the length, the server does', () => {
  expect([...OPEN].sort()).toEqual([...OPEN_STATES].sort());
  expect(COMMENT_MAX).toBe(COMMENT_MAX_LENGTH);
});
