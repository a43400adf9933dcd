let lastMs = 0;
let sequence = 0;

/**
 * A UUIDv7 whose order is this process's order of making: lists that sort by (time, id) (the audit log, a review's
 * thread) must still read rows made in one millisecond in the order they happened.
 */
export function timeOrderedId(now: number): string {
  if (now > lastMs) {
    lastMs = now;
    sequence = 0;
  } else if (++sequence > 0xfff) {
    lastMs += 1;
    sequence = 0;
  }
  const random = crypto.getRandomValues(new Uint8Array(8));
  const hex = [...random].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  const time = lastMs.toString(16).padStart(12, '0');
  const variant = (8 + (random[0]! & 3)).toString(16);
  return `${time.slice(0, 8)}-${time.slice(8)}-7${sequence.toString(16).padStart(3, '0')}-${variant}${hex.slice(1, 4)}-${hex.slice(4, 16)}`;
}
