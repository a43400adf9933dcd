import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import { CLOCK_SKEW_MS } from '../posts/posts.rules.js';
import { checkPageNotScheduled } from './pages.rules.js';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const at = (ms: number) => new Date(NOW + ms).toISOString();

describe('checkPageNotScheduled', () => {
  it('refuses a published page dated after now, at the same boundary as posts', () => {
    expect(() =>
      checkPageNotScheduled({ status: 'published', publishedAt: at(CLOCK_SKEW_MS) }, null, NOW),
    ).not.toThrow();
    expect(() => checkPageNotScheduled({ status: 'published', publishedAt: at(CLOCK_SKEW_MS + 1) }, null, NOW)).toThrow(
      /^v1 has no scheduling: a published page cannot have a publishedAt later than now/,
    );
    expect(() =>
      checkPageNotScheduled(
        { status: 'published' },
        { status: 'draft', published_at: '2030-01-01T00:00:00.000Z' },
        NOW,
      ),
    ).toThrow(AppError);
    expect(() => checkPageNotScheduled({ publishedAt: '2030-01-01T00:00:00.000Z' }, null, NOW)).not.toThrow();
  });
});
