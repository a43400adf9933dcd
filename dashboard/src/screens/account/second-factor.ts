import { ApiError } from '../../api';

/** The signed-in user's second factor: not a workspace's, so not under `['w', …]`. */
export const SECOND_FACTOR_KEY = ['account', 'second-factor'] as const;

/** A base32 secret in groups of four, as people type it into an app ("ABCD EFGH …"); apps ignore the spaces. */
export function groupSecret(secret: string): string {
  return secret.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');
}

/** Whether the server refused the value of `field` itself (a 400 whose issue points at it). */
export function refusedField(error: unknown, field: string): boolean {
  if (!(error instanceof ApiError) || error.status !== 400) return false;
  const issues = error.details?.issues;
  return Array.isArray(issues) && issues.some((issue: { path?: string }) => issue.path === `/${field}`);
}

/** The 409's `details.reason`, when it is one. */
export function conflictReason(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const reason = error.details?.reason;
  return typeof reason === 'string' ? reason : null;
}

/** "in 14 minutes (at 10:42)": when a 429 says trying again is worth it, or null for any other error. */
export function retryWords(error: unknown, now = Date.now()): string | null {
  if (!(error instanceof ApiError) || error.status !== 429) return null;
  const seconds = Number(error.details?.retryAfterSeconds);
  if (!Number.isFinite(seconds) || seconds <= 0) return 'in a few minutes';
  if (seconds < 60) return `in ${Math.ceil(seconds)} seconds`;
  const at = new Date(now + seconds * 1000).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  const minutes = Math.ceil(seconds / 60);
  return `in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} (at ${at})`;
}

/** "A, B and C": workspace names in a sentence. */
export function listWords(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * Copies `text`; where the page may not (an address without https), selects what shows it, for the person to copy.
 * Resolves to whether it was copied.
 */
export async function copyOrSelect(text: string, shown: Element | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (shown) window.getSelection()?.selectAllChildren(shown);
    return false;
  }
}

/** The text of the downloaded file: enough to know, months later, what the codes are and for whom. */
export function recoveryCodesFile(email: string, codes: readonly string[], made = new Date()): string {
  return [
    `Quire recovery codes for ${email}`,
    `Made ${made.toISOString().slice(0, 10)}. Each code works once; new codes stop these.`,
    '',
    ...codes,
    '',
  ].join('\n');
}
