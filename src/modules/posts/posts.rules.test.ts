import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import { CLOCK_SKEW_MS, checkPostNotScheduled } from './posts.rules.js';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const at = (ms: number) => new Date(NOW + ms).toISOString();
const LAST_ACCEPTED = at(CLOCK_SKEW_MS);
const FIRST_REFUSED = at(CLOCK_SKEW_MS + 1);

function refusal(run: () => void): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a 400');
}

describe('checkPostNotScheduled', () => {
  it('refuses a published post dated after now, to the millisecond past the clock skew', () => {
    expect(() => checkPostNotScheduled({ status: 'published', publishedAt: LAST_ACCEPTED }, null, NOW)).not.toThrow();
    const error = refusal(() => checkPostNotScheduled({ status: 'published', publishedAt: FIRST_REFUSED }, null, NOW));
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.message).toMatch(/^v1 has no scheduling: a published post cannot have a publishedAt later than now/);
    expect(error.details).toEqual({ issues: [{ in: 'body', path: '/publishedAt', message: error.message }] });
  });

  it('reads an offset as the instant it names', () => {
    // 13:01:00.001 at +01:00 is 12:01:00.001Z, one millisecond past the last accepted instant.
    expect(() =>
      checkPostNotScheduled({ status: 'published', publishedAt: '2026-03-01T13:01:00.001+01:00' }, null, NOW),
    ).toThrow(AppError);
    expect(() =>
      checkPostNotScheduled({ status: 'published', publishedAt: '2026-03-01T13:01:00.000+01:00' }, null, NOW),
    ).not.toThrow();
  });

  it('lets a draft, a past date, no date and a null date through', () => {
    for (const request of [
      { publishedAt: FIRST_REFUSED },
      { status: 'draft', publishedAt: '2030-01-01T00:00:00.000Z' },
      { status: 'published', publishedAt: at(-1) },
      { status: 'published' },
      { status: 'published', publishedAt: null },
    ])
      expect(() => checkPostNotScheduled(request, null, NOW), JSON.stringify(request)).not.toThrow();
  });

  it('on an update, completes the request with the stored status or date', () => {
    const draftDatedLater = { status: 'draft', published_at: FIRST_REFUSED };
    const publishedNow = { status: 'published', published_at: at(0) };
    expect(() => checkPostNotScheduled({ status: 'published' }, draftDatedLater, NOW)).toThrow(AppError);
    expect(() => checkPostNotScheduled({ publishedAt: FIRST_REFUSED }, publishedNow, NOW)).toThrow(AppError);
    expect(() => checkPostNotScheduled({ publishedAt: LAST_ACCEPTED }, publishedNow, NOW)).not.toThrow();
    expect(() => checkPostNotScheduled({ status: 'published', publishedAt: null }, draftDatedLater, NOW)).not.toThrow();
  });

  it('leaves a row written before the rule alone until the request sets its status or date', () => {
    const publishedLater = { status: 'published', published_at: '2030-01-01T00:00:00.000Z' };
    expect(() => checkPostNotScheduled({}, publishedLater, NOW)).not.toThrow();
    expect(() => checkPostNotScheduled({ status: 'draft' }, publishedLater, NOW)).not.toThrow();
    expect(() => checkPostNotScheduled({ status: 'archived' }, publishedLater, NOW)).not.toThrow();
    expect(() => checkPostNotScheduled({ status: 'published' }, publishedLater, NOW)).toThrow(AppError);
  });
});
