import type { AuthorRow, MediaRow } from '../../db/schema.js';
import { parseJson } from '../../shared/json.js';
import { presentMedia } from '../media/media.presenter.js';
import { authorJsonLd } from '../seo/author-json-ld.js';
import type { AuthorForLd } from '../seo/json-ld.js';
import type { Seo } from '../seo/seo.schemas.js';
import type { SiteSettings } from '../workspaces/site-settings.js';
import type { Author, Person } from './authors.schemas.js';

export interface AuthorContext {
  publicUrl: string;
  media: ReadonlyMap<string, MediaRow>;
  settings: SiteSettings;
}

export function presentAuthor(row: AuthorRow, ctx: AuthorContext): Author {
  const avatar = row.avatar_media_id ? ctx.media.get(row.avatar_media_id) : undefined;
  const avatarMedia = avatar ? presentMedia(ctx.publicUrl, avatar) : null;
  const sameAs = parseJson<string[]>(row.same_as) ?? [];
  const person = parseJson<Person>(row.person);
  const seo = parseJson<Seo>(row.seo);
  const forLd = {
    slug: row.slug,
    displayName: row.display_name,
    bio: row.bio,
    sameAs,
    person,
    avatarUrl: avatarMedia?.url ?? null,
  };
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    slug: row.slug,
    displayName: row.display_name,
    bio: row.bio,
    credentials: row.credentials,
    avatarMediaId: row.avatar_media_id,
    avatarMedia,
    sameAs,
    isActive: Boolean(row.is_active),
    seo,
    person,
    jsonLd: authorJsonLd({ ...forLd, seo, createdAt: row.created_at, updatedAt: row.updated_at }, ctx.settings),
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
