import type { DatabaseHandle } from '../../db/database.js';
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
    async get(actor: Actor): Promise<SiteSettings> {
      const settings = await loadSiteSettings(db, actor.workspaceId);
      const logo = settings.logoMediaId
        ? await mediaRepository.findById(db, actor.workspaceId, settings.logoMediaId)
        : undefined;
      return { ...settings, logo: logo ? presentMedia(publicUrl, logo) : null };
    },
  };
}

export type SiteSettingsService = ReturnType<typeof createSiteSettingsService>;
