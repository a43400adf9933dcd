import { ApiError } from './api';

/**
 * How long a 429 asked to wait, in words to end a sentence with ("in 42 seconds", "in about 3 minutes"), or null
 * when it is not a 429 or did not say.
 */
export function waitWords(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status !== 429) return null;
  const seconds = Math.ceil(Number(error.details?.retryAfterSeconds));
  if (!Number.isFinite(seconds) || seconds <= 0) return null;
  if (seconds === 1) return 'in a second';
  if (seconds < 90) return `in ${seconds} seconds`;
  return `in about ${Math.ceil(seconds / 60)} minutes`;
}
