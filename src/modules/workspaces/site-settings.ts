import type { Kysely } from 'kysely';
import { Type, type Static } from 'typebox';
import { preparedQuery } from '../../db/prepared-query.js';
import type { Database } from '../../db/schema.js';
import { Nullable, Uuid } from '../../shared/schemas.js';

/**
 * The workspace's site settings: what structured data needs to build absolute URLs and the publisher. The one
 * definition: the dashboard answers this schema, the external API (site-settings.schemas.ts) the same with the
 * logo's media row embedded.
 */
export const SiteSettings = Type.Object({
  siteName: Nullable(Type.String()),
  siteUrl: Nullable(Type.String()),
  logoMediaId: Nullable(Uuid),
  publisherName: Nullable(Type.String()),
  publisherUrl: Nullable(Type.String()),
  postUrlPattern: Nullable(Type.String()),
  pageUrlPattern: Nullable(Type.String()),
  authorUrlPattern: Nullable(Type.String()),
  categoryUrlPattern: Nullable(Type.String()),
  /** Where the site previews a draft: its placeholders are filled by the studio's "Preview on site". */
  previewUrlPattern: Nullable(Type.String()),
});
export type SiteSettings = Static<typeof SiteSettings>;

/** The column of the workspace row that holds each setting. */
export const SITE_SETTINGS_COLUMN_OF = {
  siteName: 'site_name',
  siteUrl: 'site_url',
  logoMediaId: 'logo_media_id',
  publisherName: 'publisher_name',
  publisherUrl: 'publisher_url',
  postUrlPattern: 'post_url_pattern',
  pageUrlPattern: 'page_url_pattern',
  authorUrlPattern: 'author_url_pattern',
  categoryUrlPattern: 'category_url_pattern',
  previewUrlPattern: 'preview_url_pattern',
} as const satisfies Record<keyof SiteSettings, string>;

const SETTING_ENTRIES = Object.entries(SITE_SETTINGS_COLUMN_OF) as Array<
  [keyof SiteSettings, (typeof SITE_SETTINGS_COLUMN_OF)[keyof SiteSettings]]
>;

/** The columns of the workspace row that hold its site settings (an archive carries the same ones). */
export const SITE_SETTINGS_COLUMNS = SETTING_ENTRIES.map(([, column]) => column);

/** Every answer built with structured data reads them: Kysely builds and compiles this once per dialect. */
const selectSettings = preparedQuery((db: Kysely<Database>, workspaceId: string) =>
  db.selectFrom('workspaces').select(SITE_SETTINGS_COLUMNS).where('id', '=', workspaceId),
);

export async function loadSiteSettings(db: Kysely<Database>, workspaceId: string): Promise<SiteSettings> {
  const [row] = (await selectSettings(db, workspaceId)).rows;
  if (row === undefined) throw new Error(`workspace ${workspaceId} not found`);
  const settings = {} as Record<keyof SiteSettings, string | null>;
  for (const [field, column] of SETTING_ENTRIES) settings[field] = row[column];
  return settings;
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
