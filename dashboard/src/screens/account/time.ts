const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// The screen is in English, so is this: a browser in another language would otherwise mix two in one line.
const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/**
 * How long ago a moment was, in words ("just now", "5 minutes ago", "yesterday"), for up to a week; null for
 * anything older or unreadable, which the screen shows as a date instead. A moment a little in the future (the
 * server's clock ahead of this one) is "just now".
 */
export function timeAgo(iso: string, now: number = Date.now()): string | null {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return null;
  const elapsed = now - then;
  if (elapsed < MINUTE) return 'just now';
  if (elapsed < HOUR) return relative.format(-Math.floor(elapsed / MINUTE), 'minute');
  if (elapsed < DAY) return relative.format(-Math.floor(elapsed / HOUR), 'hour');
  if (elapsed < 7 * DAY) return relative.format(-Math.floor(elapsed / DAY), 'day');
  return null;
}
