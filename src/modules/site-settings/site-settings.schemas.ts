import { Type, type Static } from 'typebox';
import { Nullable } from '../../shared/schemas.js';
import { Media } from '../media/media.schemas.js';
import { SiteSettings as WorkspaceSiteSettings } from '../workspaces/site-settings.js';

const { siteName, siteUrl, logoMediaId, ...urls } = WorkspaceSiteSettings.properties;

/**
 * The workspace's site settings as a site reads them (GET /site-settings): what Quire's jsonLd builds
 * absolute URLs and the publisher from (docs/seo.md), so a site need not keep a second copy. They are the
 * workspace's settings (workspaces/site-settings.ts) with the logo's media row embedded after its id, as a
 * post embeds its featured media; null when unset.
 */
export const SiteSettings = Type.Object({ siteName, siteUrl, logoMediaId, logo: Nullable(Media), ...urls });
export type SiteSettings = Static<typeof SiteSettings>;
