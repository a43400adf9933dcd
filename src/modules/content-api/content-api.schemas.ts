import { Type, type TObject, type TProperties } from 'typebox';
import { FieldsQuery } from '../../http/fields.js';
import { ReadQuery } from '../../http/formats.js';
import { Media } from '../media/media.schemas.js';
import { PostListQuery } from '../posts/posts.schemas.js';
import { PageListQuery } from '../pages/pages.schemas.js';
import { Uuid } from '../../shared/schemas.js';
import { ChangesPage, ChangesQuery } from '../changes/changes.schemas.js';
import { FEED_LIMITS } from '../feeds/feeds.service.js';

/** The content key, in the query string so that a browser's GET is a simple request (no preflight). */
const Key = Type.String({ maxLength: 100, description: 'A content key (quire_content_…).' });

/** A query schema of the admin API with the content key added. */
export function withKey<P extends TProperties>(query: TObject<P>) {
  return Type.Object({ ...query.properties, key: Key }, { additionalProperties: false });
}

// Only published posts and pages are listed: there is no status to ask for.
const { status: _postStatus, ...postFilters } = PostListQuery.properties;
const { status: _pageStatus, ...pageFilters } = PageListQuery.properties;
export const ContentPostListQuery = withKey(Type.Object(postFilters));
export const ContentPageListQuery = withKey(Type.Object(pageFilters));
export const ContentItemQuery = withKey(FieldsQuery);
/** A single post or page: `fields`, `formats` and the key. */
export const ContentReadQuery = withKey(ReadQuery);

/** A media file as anyone may see it: where it is and what it shows, not who uploaded it or where it is stored. */
export const PublicMedia = Type.Omit(Media, ['storagePath', 'uploadedByUserId', 'uploadedByApiKeyId']);

export const FeedParams = Type.Object(
  { format: Type.Union([Type.Literal('rss.xml'), Type.Literal('atom.xml'), Type.Literal('feed.json')]) },
  { additionalProperties: false },
);

export const FeedQuery = Type.Object(
  {
    key: Key,
    categoryId: Type.Optional(Uuid),
    tagId: Type.Optional(Uuid),
    authorId: Type.Optional(Uuid),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: FEED_LIMITS.max,
        description: 'How many of the latest posts; 20 by default.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const SitemapParams = Type.Object(
  { name: Type.String({ maxLength: 40, description: 'A part as the index names it, such as posts-1.xml.' }) },
  { additionalProperties: false },
);

export const KeyOnlyQuery = Type.Object({ key: Key }, { additionalProperties: false });

export const PreviewQuery = Type.Object(
  {
    key: Key,
    token: Type.String({ maxLength: 600, description: 'A preview token (quire_preview_…) for this resource.' }),
    fields: FieldsQuery.properties.fields,
    formats: ReadQuery.properties.formats,
  },
  { additionalProperties: false },
);

/** The change feed's query (`after`, `limit`, `fields`) and the key. */
export const ContentChangesQuery = withKey(ChangesQuery);

/** The change feed's page, and where "from now on" starts. */
export const ContentChangesPage = Type.Object({
  ...ChangesPage.properties,
  head: Type.String({
    description:
      'The cursor after every event committed so far, whatever this answer holds: ask with it (`after`) to follow ' +
      'the feed from now on, skipping the history (`limit=1`, then keep `head`).',
  }),
});
