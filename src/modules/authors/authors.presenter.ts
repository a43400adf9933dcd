import type { AuthorRow, MediaRow } from '../../db/schema.js';
import { presentMedia } from '../media/media.presenter.js';
import { authorJsonLd } from '../seo/author-json-ld.js';
import type { AuthorForLd } from '../seo/json-ld.js';
import type { SiteSettings } from '../workspaces/site-settings.js';
import { authorColumns } from './authors.columns.js';
import type { Author, AuthorUpdateBody } from './authors.schemas.js';

export interface AuthorContext {
  publicUrl: string;
  media: ReadonlyMap<string, MediaRow>;
  settings: SiteSettings;
}

export function presentAuthor(row: AuthorRow, ctx: AuthorContext): Author {
  const avatar = row.avatar_media_id ? ctx.media.get(row.avatar_media_id) : undefined;
  const avatarMedia = avatar ? presentMedia(ctx.publicUrl, avatar) : null;
  const fields = authorColumns.read(row) as Required<AuthorUpdateBody>;
  const forLd = {
    slug: fields.slug,
    displayName: fields.displayName,
    bio: fields.bio,
    sameAs: fields.sameAs,
    person: fields.person,
    avatarUrl: avatarMedia?.url ?? null,
  };
  return {
    ...fields,
    id: row.id,
    workspaceId: row.workspace_id,
    avatarMedia,
    jsonLd: authorJsonLd(
      { ...forLd, seo: fields.seo, createdAt: row.created_at, updatedAt: row.updated_at },
      ctx.settings,
    ),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function authorForLd(author: Author): AuthorForLd {
  return {
    slug: author.slug,
    displayName: author.displayName,
    bio: author.bio,
    sameAs: author.sameAs,
    person: author.person,
    avatarUrl: author.avatarMedia?.url ?? null,
  };
}
