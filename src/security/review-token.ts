import type { MasterKey } from './master-key.js';
import { tokenSigner } from './token-signer.js';

/**
 * Review links (docs/publishing.md, "Review links"): a token names one stored link by its id, signed with
 * HMAC-SHA256 under a key derived from the master key. What the link may show, and until when, is the stored row,
 * so deleting it revokes the token; the signature keeps guesses from reaching the database, and lets the same
 * token be made again from the id, to show a link a second time. Every way a token can fail is the same null.
 */
export const REVIEW_TOKEN_BRAND = 'quire_review_';

/** A UUID's 16 bytes in base64url, and a SHA-256 in base64url: the only lengths a token's two parts may have. */
const ID_LENGTH = 22;
const SIGNATURE_LENGTH = 43;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const signer = tokenSigner('quire-review-link-v1');

/** The token of the review link `id` (a UUID); the same id always makes the same token. */
export function reviewToken(master: MasterKey, id: string): string {
  if (!UUID.test(id)) throw new TypeError('A review link id is a lower-case UUID');
  const body = Buffer.from(id.replaceAll('-', ''), 'hex').toString('base64url');
  return `${REVIEW_TOKEN_BRAND}${body}.${signer.sign(master, body)}`;
}

/** The link id of a token this master key signed; else null. */
export function readReviewToken(master: MasterKey, token: string): string | null {
  if (token.length !== REVIEW_TOKEN_BRAND.length + ID_LENGTH + 1 + SIGNATURE_LENGTH) return null;
  if (!token.startsWith(REVIEW_TOKEN_BRAND)) return null;
  const [body, signature, extra] = token.slice(REVIEW_TOKEN_BRAND.length).split('.');
  if (body?.length !== ID_LENGTH || signature?.length !== SIGNATURE_LENGTH || extra !== undefined) return null;
  if (!signer.verify(master, body, signature)) return null;
  const bytes = Buffer.from(body, 'base64url');
  if (bytes.length !== 16) return null;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
