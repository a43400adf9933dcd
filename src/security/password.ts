import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

/** OWASP's scrypt floor is N=2^17 (r=8, p=1): 128 MiB of memory a hash. */
export const DEFAULT_PASSWORD_COST = 17;
/** The range QUIRE_PASSWORD_COST takes; below the default is for test runs, and the server says so at start. */
export const PASSWORD_COST_RANGE = { min: 10, max: 20 } as const;
const R = 8;
const P = 1;
/** Room for the largest cost allowed (128 · r · 2^20 bytes at 2^20), whatever cost a stored hash was made at. */
const MAX_MEMORY = 2 * 128 * R * 2 ** PASSWORD_COST_RANGE.max;
const KEY_LENGTH = 32;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 1024;

/**
 * Hashing and checking passwords with scrypt at N = 2^cost. A hash is `scrypt$N$r$p$salt$hash` (base64 parts): its
 * parameters travel with it, so a hash made at one cost is still checked after the cost is changed, and one made
 * at a lower cost is made again at a sign-in (`needsRehash`).
 */
export function createPasswords(cost: number = DEFAULT_PASSWORD_COST) {
  const params = { N: 2 ** cost, r: R, p: P, maxmem: MAX_MEMORY };
  let dummyHash: Promise<string> | undefined;

  async function hash(password: string): Promise<string> {
    const salt = crypto.randomBytes(16);
    const derived = await scrypt(password, salt, KEY_LENGTH, params);
    return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), derived.toString('base64')].join('$');
  }

  async function verify(password: string, stored: string): Promise<boolean> {
    const [scheme, n, r, p, salt, expectedBase64] = stored.split('$');
    if (scheme !== 'scrypt' || !n || !r || !p || !salt || !expectedBase64) return false;
    const expected = Buffer.from(expectedBase64, 'base64');
    const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
      N: Number(n),
      r: Number(r),
      p: Number(p),
      maxmem: MAX_MEMORY,
    });
    return crypto.timingSafeEqual(actual, expected);
  }

  /**
   * Whether a stored hash was made weaker than this cost asks (a smaller N or r): the password that matched it
   * should be hashed again. A stronger one is kept: lowering the setting weakens no stored hash.
   */
  function needsRehash(stored: string): boolean {
    const [, n, r] = stored.split('$');
    return Number(n) < params.N || Number(r) < params.r;
  }

  /** Starts making the hash `verifyNothing` checks against, so that it is ready before the first unknown email. */
  function warmUp(): void {
    dummyHash ??= hash(crypto.randomBytes(24).toString('base64'));
  }

  /**
   * Spends one verification's time on a hash no user has and answers false: a sign-in for an unknown
   * email (or a user without a password) then takes as long as a wrong password for a real one.
   */
  async function verifyNothing(password: string): Promise<false> {
    warmUp();
    await verify(password, await dummyHash!);
    return false;
  }

  return { hash, verify, needsRehash, warmUp, verifyNothing };
}

export type Passwords = ReturnType<typeof createPasswords>;
