import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as every authenticator app reads it: SHA-1, six digits, thirty seconds. */
const PERIOD_SECONDS = 30;

function totpOf(secret: string, email = '') {
  return new TOTP({
    issuer: 'Quire',
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

/** A new secret of 160 bits, in the base32 an app takes typed in. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://` URI a QR code carries. */
export function totpUri(secret: string, email: string): string {
  return totpOf(secret, email).toString();
}

/**
 * The time step `code` is right for, within one step of now either way (a phone's clock drifts, a code is typed
 * late), or null. A step at or before `usedThrough` is refused: a code works once.
 */
export function totpStep(secret: string, code: string, usedThrough: number, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(secret).validate({ token: code, timestamp: now, window: 1 });
  if (delta === null) return null;
  const step = Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
  return step > usedThrough ? step : null;
}
