import { Type, type Static } from 'typebox';
import { Nullable, Uuid } from '../../shared/schemas.js';
import { Media } from '../media/media.schemas.js';

/**
 * The workspace's site settings as a site reads them (GET /site-settings): what Quire's jsonLd builds
 * absolute URLs and the publisher from (docs/seo.md), so a site need not keep a second copy.
 */
export const SiteSettings = Type.Object({
  siteName: Nullable(Type.String()),
  siteUrl: Nullable(Type.String()),
  logoMediaId: Nullable(Uuid),
  /** The logo's media row, embedded as a post embeds its featured media; null when unset. */
  logo: Nullable(Media),
  publisherName: Nullable(Type.String()),
  publisherUrl: Nullable(Type.String()),
  postUrlPattern: Nullable(Type.String()),
  pageUrlPattern: Nullable(Type.String()),
  authorUrlPattern: Nullable(Type.String()),
  categoryUrlPattern: Nullable(Type.String()),
});
export type SiteSettings = Static<typeof SiteSettings>;
