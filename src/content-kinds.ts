import { compileSerializer } from './http/serialization.js';
import { Author } from './modules/authors/authors.schemas.js';
import { Category } from './modules/categories/categories.schemas.js';
import { Media } from './modules/media/media.schemas.js';
import { pageKind } from './modules/pages/pages.kind.js';
import { postKind } from './modules/posts/posts.kind.js';
import { Redirect } from './modules/redirects/redirects.schemas.js';
import { SiteSettings } from './modules/site-settings/site-settings.schemas.js';
import { Tag } from './modules/tags/tags.schemas.js';
import type { ContentKinds } from './writes/kinds.js';

/**
 * Every kind of content the write path writes, as it needs them (writes/kinds.ts): each answer serialized as
 * the external API answers it, fields the schema lacks left out (a webhook's `data`), and the revision
 * snapshots posts and pages hand in from their modules (posts.kind.ts, pages.kind.ts). createServices hands
 * them to the write path.
 */
export const CONTENT_KINDS: ContentKinds = {
  post: postKind,
  page: pageKind,
  media: { serialize: compileSerializer(Media) },
  author: { serialize: compileSerializer(Author) },
  category: { serialize: compileSerializer(Category) },
  tag: { serialize: compileSerializer(Tag) },
  redirect: { serialize: compileSerializer(Redirect) },
  settings: { serialize: compileSerializer(SiteSettings) },
};
