import { Type } from 'typebox';
import { Body, BodyWrite } from '../../blocks/blocks.schemas.js';
import { computed, fieldList, instant, json, stored, trimmed } from '../../db/columns.js';
import { Nullable, Slug, Timestamp, Uuid } from '../../shared/schemas.js';
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

/**
 * Every field of a page (db/columns.ts, FieldSpec), in the order a page is answered: pages.schemas.ts builds
 * the Page answer and the create and PATCH bodies from it, pages.columns.ts the column map, and the workspace
 * archive its columns.
 */
export const pageFields = fieldList({
  id: { answer: Uuid, columns: ['id'] },
  workspaceId: { answer: Uuid },
  // Claimed free, derived from the title when left out.
  slug: { answer: Type.String(), write: Slug, column: computed('slug') },
  title: {
    answer: Type.String(),
    write: Type.String({ minLength: 1, maxLength: 300, pattern: '\\S' }),
    column: trimmed('title'),
  },
  // The body and what derives from it (bodyText, the search text).
  bodyJson: { answer: Body, write: BodyWrite, column: computed(), columns: ['body_json'] },
  bodyText: { answer: Type.String(), columns: ['body_text'] },
  pageType: { answer: Type.String(), write: PageType, column: stored('page_type', { initial: 'WebPage' }) },
  // `scheduled` and `archived` are post statuses; a page is draft or published only.
  status: { answer: PageStatus, write: PageStatus, column: stored('status', { initial: 'draft' }) },
  publishedAt: { answer: Nullable(Timestamp), write: Nullable(Timestamp), column: instant('published_at') },
  seo: { answer: NullableSeo, write: Nullable(Seo), column: json('seo') },
  jsonLd: { answer: JsonLd },
  deletedAt: { answer: Nullable(Timestamp), columns: ['deleted_at'] },
  createdAt: { answer: Timestamp, columns: ['created_at'] },
  updatedAt: { answer: Timestamp, columns: ['updated_at'] },
  bodyHtml: {
    answer: Type.Optional(
      Type.String({
        description:
          'The body as HTML (@quire/blocks, docs/blocks.md): only when asked for, by `formats=html` or by naming it in `fields`.',
      }),
    ),
  },
});
