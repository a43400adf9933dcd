import crypto from 'node:crypto';
import type { MasterKey } from './master-key.js';

/**
 * HMAC-SHA256 signatures of a token's body under a key derived from the master key for one purpose (`info`), so a
 * token made for one purpose (a preview, a review link) never verifies as another's. Every token kind signs here.
 */
export function tokenSigner(info: string) {
  const keys = new WeakMap<MasterKey, Buffer>();
  const keyOf = (master: MasterKey) => {
    let key = keys.get(master);
    if (key === undefined) {
      key = Buffer.from(crypto.hkdfSync('sha256', master.key, Buffer.alloc(0), info, 32));
      keys.set(master, key);
    }
    return key;
  };
  const sign = (master: MasterKey, body: string) =>
    crypto.createHmac('sha256', keyOf(master)).update(body).digest('base64url');
  return {
    sign,
    /** Whether `signature` is this purpose's signature of `body`, compared in constant time. */
    verify(master: MasterKey, body: string, signature: string): boolean {
      const expected = Buffer.from(sign(master, body));
      const given = Buffer.from(signature);
      return given.length === expected.length && crypto.timingSafeEqual(given, expected);
    },
  };
}
