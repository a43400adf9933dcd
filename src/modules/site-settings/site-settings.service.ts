import type { Kysely } from 'kysely';
import type { DatabaseHandle } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { Actor } from '../../security/actor.js';
import { presentMedia } from '../media/media.presenter.js';
import { mediaRepository } from '../media/media.repository.js';
import { loadSiteSettings } from '../workspaces/site-settings.js';
import type { SiteSettings } from './site-settings.schemas.js';

/**
 * Reading the site settings through the external API. The dashboard (modules/dashboard/settings.service.ts)
 * and the CLI edit them; every edit moves the content version, so the answer is cached and revalidated
 * like any content GET.
 */
export function createSiteSettingsService({ db }: DatabaseHandle, publicUrl: string) {
  return {
    get: (actor: Actor): Promise<SiteSettings> => readSiteSettings(db, publicUrl, actor.workspaceId),
  };
}

/**
 * The settings as the API reads them, the logo's media row embedded. A settings write answers this too: its
 * change event's body (a webhook's data) is serialized from the write's answer.
 */
export async function readSiteSettings(
  db: Kysely<Database>,
  publicUrl: string,
  workspaceId: string,
): Promise<SiteSettings> {
  const settings = await loadSiteSettings(db, workspaceId);
  const logo = settings.logoMediaId ? await mediaRepository.findById(db, workspaceId, settings.logoMediaId) : undefined;
  return { ...settings, logo: logo ? presentMedia(publicUrl, logo) : null };
}

export type SiteSettingsService = ReturnType<typeof createSiteSettingsService>;
