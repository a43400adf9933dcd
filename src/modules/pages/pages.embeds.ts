import type { Kysely } from 'kysely';
import { imageMediaIds, type StoredBlock } from '@quire/blocks';
import type { Database } from '../../db/schema.js';
import { mediaRepository } from '../media/media.repository.js';
import { loadSiteSettings } from '../workspaces/site-settings.js';
import { presentPage } from './pages.presenter.js';
import type { PageRow } from './pages.repository.js';
import type { Page } from './pages.schemas.js';

/** Pages as the API answers them: two queries for any number of pages (the site settings, every image). */
export async function presentPages(
  db: Kysely<Database>,
  workspaceId: string,
  rows: readonly PageRow[],
  publicUrl: string,
): Promise<Page[]> {
  const bodies = rows.map((row) => JSON.parse(row.body_json) as StoredBlock[]);
  const settings = await loadSiteSettings(db, workspaceId);
  const mediaIds = [
    ...bodies.flatMap((body) => imageMediaIds(body)),
    ...(settings.logoMediaId ? [settings.logoMediaId] : []),
  ];
  const media = new Map((await mediaRepository.findMany(db, workspaceId, mediaIds)).map((m) => [m.id, m]));
  return rows.map((row, i) => presentPage(row, bodies[i]!, { publicUrl, media, settings }));
}
