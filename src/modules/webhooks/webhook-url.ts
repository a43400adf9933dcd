import { invalid } from '../../errors.js';
import { FORBIDDEN_REASON, isForbiddenAddress, literalHost } from './dispatch/address-guard.js';

/**
 * Refuses a URL no delivery could be made to, with the body's path: not absolute, not http(s), credentials in
 * it (they would be sent to whoever the URL names and shown to every reader of the endpoint), or, without
 * QUIRE_WEBHOOK_ALLOW_PRIVATE, a host that is a forbidden address (the server's own included, as its interfaces
 * are now) or `localhost` as written. A name that resolves to such an address is refused at delivery, when it is
 * resolved (dispatch/address-guard.ts).
 */
export function checkWebhookUrl(url: string, allowPrivate: boolean): string {
  const refuse = (message: string) => invalid([{ in: 'body', path: '/url', message }]);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw refuse('url must be an absolute http or https URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw refuse('url must be an http or https URL');
  if (parsed.username !== '' || parsed.password !== '') throw refuse('url must not carry credentials');
  if (!allowPrivate) {
    const literal = literalHost(parsed.hostname);
    const local = parsed.hostname === 'localhost' || parsed.hostname.endsWith('.localhost');
    if (local || (literal !== undefined && isForbiddenAddress(literal)))
      throw refuse(`url names ${FORBIDDEN_REASON} (allowed only with QUIRE_WEBHOOK_ALLOW_PRIVATE=true)`);
  }
  return parsed.toString();
}
