import type { StoredBlock } from '../../blocks/blocks.schemas.js';
import { enrichBlocks } from '../../blocks/enrich.js';
import type { MediaRow } from '../../db/schema.js';
import { parseJson } from '../../shared/json.js';
import { mediaUrl } from '../media/media.presenter.js';
import { pageJsonLd } from '../seo/page-json-ld.js';
import type { Seo } from '../seo/seo.schemas.js';
import type { SiteSettings } from '../workspaces/site-settings.js';
import type { PageRow } from './pages.repository.js';
import type { Page } from './pages.schemas.js';

export interface PageContext {
  publicUrl: string;
  media: ReadonlyMap<string, MediaRow>;
  settings: SiteSettings;
}

export function presentPage(row: PageRow, body: readonly StoredBlock[], ctx: PageContext): Page {
  const seo = parseJson<Seo>(row.seo);
  const logo = ctx.settings.logoMediaId ? ctx.media.get(ctx.settings.logoMediaId) : undefined;
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    slug: row.slug,
    title: row.title,
    bodyJson: enrichBlocks(body, ctx.media, ctx.publicUrl),
    bodyText: row.body_text,
    pageType: row.page_type,
    status: row.status,
    publishedAt: row.published_at,
    seo,
    jsonLd: pageJsonLd(
      {
        slug: row.slug,
        title: row.title,
        pageType: row.page_type,
        seo,
        publishedAt: row.published_at,
        updatedAt: row.updated_at,
        blocks: body,
      },
      ctx.settings,
      logo ? mediaUrl(ctx.publicUrl, logo) : null,
    ),
    deletedAt: row.deleted_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
