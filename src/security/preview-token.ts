import type { MasterKey } from './master-key.js';
import { tokenSigner } from './token-signer.js';

/**
 * Preview tokens (docs/content-api.md, "Previews"): what lets a site show one draft post or page in its own layout.
 * A token names its workspace, the kind and id of the one resource, and when it expires, signed with HMAC-SHA256
 * under a key derived from the master key: nothing is stored, so it cannot be revoked, only outlived (an hour by
 * default). Every way a token can fail (malformed, tampered, expired, another workspace or resource) is the same
 * null, so the answer to it tells nothing.
 */
export const PREVIEW_TOKEN_BRAND = 'quire_preview_';
export type PreviewKind = 'post' | 'page';

export interface PreviewClaims {
  workspaceId: string;
  kind: PreviewKind;
  id: string;
  /** Seconds since the epoch. */
  expiresAt: number;
  /** The token shows the resource with its pending changes applied, as it will be after Update. */
  pending?: boolean;
}

const signer = tokenSigner('quire-preview-token-v1');

export function issuePreviewToken(master: MasterKey, claims: PreviewClaims): string {
  const body = Buffer.from(
    JSON.stringify({
      w: claims.workspaceId,
      k: claims.kind,
      i: claims.id,
      e: claims.expiresAt,
      ...(claims.pending ? { p: 1 } : {}),
    }),
  ).toString('base64url');
  return `${PREVIEW_TOKEN_BRAND}${body}.${signer.sign(master, body)}`;
}

/** The claims of a token this master key signed and that has not expired at `nowSeconds`; else null. */
export function readPreviewToken(master: MasterKey, token: string, nowSeconds: number): PreviewClaims | null {
  if (token.length > 600 || !token.startsWith(PREVIEW_TOKEN_BRAND)) return null;
  const [body, signature, extra] = token.slice(PREVIEW_TOKEN_BRAND.length).split('.');
  if (body === undefined || signature === undefined || extra !== undefined) return null;
  if (!signer.verify(master, body, signature)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const { w, k, i, e, p } = (parsed ?? {}) as Record<string, unknown>;
  if (typeof w !== 'string' || (k !== 'post' && k !== 'page') || typeof i !== 'string' || typeof e !== 'number')
    return null;
  if (e <= nowSeconds) return null;
  return { workspaceId: w, kind: k, id: i, expiresAt: e, ...(p === 1 ? { pending: true } : {}) };
}
