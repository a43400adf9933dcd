import { Type, type Static } from 'typebox';
import { Body, BodyWrite } from '../../blocks/blocks.schemas.js';
import { listQuery, paginated } from '../../http/pagination.js';
import { Nullable, Slug, Timestamp, Uuid, WordsQuery } from '../../shared/schemas.js';
import { JsonLd, NullableSeo, Seo } from '../seo/seo.schemas.js';

export const PageStatus = Type.Union([Type.Literal('draft'), Type.Literal('published')]);

/** schema.org's WebPage and its page subtypes: what `pageType` may name. */
export const PAGE_TYPES = [
  'WebPage',
  'AboutPage',
  'ContactPage',
  'FAQPage',
  'CollectionPage',
  'ProfilePage',
  'QAPage',
  'ItemPage',
  'CheckoutPage',
  'SearchResultsPage',
  'MedicalWebPage',
  'RealEstateListing',
] as const;
export const PageType = Type.Unsafe<(typeof PAGE_TYPES)[number]>({ type: 'string', enum: [...PAGE_TYPES] });

export const Page = Type.Object({
  id: Uuid,
  workspaceId: Uuid,
  slug: Type.String(),
  title: Type.String(),
  bodyJson: Body,
  bodyText: Type.String(),
  pageType: Type.String(),
  status: PageStatus,
  publishedAt: Nullable(Timestamp),
  seo: NullableSeo,
  jsonLd: JsonLd,
  deletedAt: Nullable(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Page = Static<typeof Page>;

const writable = {
  slug: Slug,
  title: Type.String({ minLength: 1, maxLength: 300, pattern: '\\S' }),
  bodyJson: BodyWrite,
  pageType: PageType,
  /** `scheduled` and `archived` are post statuses; a page is draft or published only. */
  status: PageStatus,
  publishedAt: Nullable(Timestamp),
  seo: Nullable(Seo),
};

const optional = Type.Partial(Type.Object(writable)).properties;

export const PageCreateBody = Type.Object({ ...optional, title: writable.title }, { additionalProperties: false });
export type PageCreateBody = Static<typeof PageCreateBody>;

export const PageUpdateBody = Type.Object(optional, { additionalProperties: false });
export type PageUpdateBody = Static<typeof PageUpdateBody>;

export const PAGE_SORT_KEYS = ['createdAt', 'updatedAt', 'title', 'status'] as const;
export type PageSortKey = (typeof PAGE_SORT_KEYS)[number];

export const PageListQuery = listQuery(PAGE_SORT_KEYS, {
  q: Type.Optional(WordsQuery('the title or the body text')),
  status: Type.Optional(PageStatus),
});
export type PageListQuery = Static<typeof PageListQuery>;
export const PageList = paginated(Page);
