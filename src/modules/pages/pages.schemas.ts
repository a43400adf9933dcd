import { Formats } from '../../http/formats.js';
import { Type, type Static } from 'typebox';
import { answerSchemas, writeSchemas } from '../../db/columns.js';
import { listQuery, paginated } from '../../http/pagination.js';
import { WordsQuery } from '../../shared/schemas.js';
import { PageStatus, pageFields } from './pages.fields.js';

export { PAGE_TYPES, PageStatus, PageType } from './pages.fields.js';

export const Page = Type.Object(answerSchemas(pageFields));
export type Page = Static<typeof Page>;

const writable = writeSchemas(pageFields);

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
  formats: Formats,
});
export type PageListQuery = Static<typeof PageListQuery>;
export const PageList = paginated(Page);
