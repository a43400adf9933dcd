import type { StoredBlock } from '@quire/blocks';
import { enrichBlocks } from '../../blocks/enrich.js';
import type { MediaRow } from '../../db/schema.js';
import { mediaUrl } from '../../blocks/images.js';
import { pageJsonLd } from '../seo/page-json-ld.js';
import type { SiteSettings } from '../workspaces/site-settings.js';
import type { PageRow } from './pages.repository.js';
import { pageColumns } from './pages.columns.js';
import type { Page, PageUpdateBody } from './pages.schemas.js';

export interface PageContext {
  publicUrl: string;
  media: ReadonlyMap<string, MediaRow>;
  settings: SiteSettings;
}

export function presentPage(row: PageRow, body: readonly StoredBlock[], ctx: PageContext): Page {
  const fields = pageColumns.read(row) as Required<Omit<PageUpdateBody, 'bodyJson'>>;
  const logo = ctx.settings.logoMediaId ? ctx.media.get(ctx.settings.logoMediaId) : undefined;
  return {
    ...fields,
    id: row.id,
    workspaceId: row.workspace_id,
    bodyJson: enrichBlocks(body, ctx.media, ctx.publicUrl),
    bodyText: row.body_text,
    jsonLd: pageJsonLd(
      {
        slug: fields.slug,
        title: fields.title,
        pageType: fields.pageType,
        seo: fields.seo,
        publishedAt: fields.publishedAt,
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
