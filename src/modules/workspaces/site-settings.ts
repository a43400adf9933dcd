import type { Kysely } from 'kysely';
import { preparedQuery } from '../../db/prepared-query.js';
import type { Database } from '../../db/schema.js';

/** The workspace's site settings: what structured data needs to build absolute URLs and the publisher. */
export interface SiteSettings {
  siteName: string | null;
  siteUrl: string | null;
  logoMediaId: string | null;
  publisherName: string | null;
  publisherUrl: string | null;
  postUrlPattern: string | null;
  pageUrlPattern: string | null;
  authorUrlPattern: string | null;
  categoryUrlPattern: string | null;
}

/** The columns of the workspace row that hold its site settings (an archive carries the same ones). */
export const SITE_SETTINGS_COLUMNS = [
  'site_name',
  'site_url',
  'logo_media_id',
  'publisher_name',
  'publisher_url',
  'post_url_pattern',
  'page_url_pattern',
  'author_url_pattern',
  'category_url_pattern',
] as const;

/** Every answer built with structured data reads them: Kysely builds and compiles this once per dialect. */
const selectSettings = preparedQuery((db: Kysely<Database>, workspaceId: string) =>
  db.selectFrom('workspaces').select(SITE_SETTINGS_COLUMNS).where('id', '=', workspaceId),
);

export async function loadSiteSettings(db: Kysely<Database>, workspaceId: string): Promise<SiteSettings> {
  const [row] = (await selectSettings(db, workspaceId)).rows;
  if (row === undefined) throw new Error(`workspace ${workspaceId} not found`);
  return {
    siteName: row.site_name,
    siteUrl: row.site_url,
    logoMediaId: row.logo_media_id,
    publisherName: row.publisher_name,
    publisherUrl: row.publisher_url,
    postUrlPattern: row.post_url_pattern,
    pageUrlPattern: row.page_url_pattern,
    authorUrlPattern: row.author_url_pattern,
    categoryUrlPattern: row.category_url_pattern,
  };
}

/**
 * An absolute URL from the site URL and a pattern such as `/blog/{slug}` (categories may use `{path}`);
 * null when either setting is missing, so that nothing is invented.
 */
export function siteUrlFor(
  settings: SiteSettings,
  pattern: string | null,
  values: { slug: string; path?: string },
): string | null {
  if (!settings.siteUrl || !pattern) return null;
  const relative = pattern
    .replace('{slug}', encodeURIComponent(values.slug))
    .replace('{path}', values.path ?? values.slug);
  try {
    return new URL(relative, settings.siteUrl.endsWith('/') ? settings.siteUrl : `${settings.siteUrl}/`).toString();
  } catch {
    return null;
  }
}
