import { columnMap, computed, instant, json, stored, trimmed } from '../../db/columns.js';
import type { PageUpdateBody } from './pages.schemas.js';

/** Where each writable field of a page is kept (db/columns.ts): create, PATCH and the presenter read this. */
export const pageColumns = columnMap<PageUpdateBody>({
  // Claimed free, derived from the title when left out.
  slug: computed('slug'),
  title: trimmed('title'),
  // The body and what derives from it (bodyText, the search text).
  bodyJson: computed(),
  pageType: stored('page_type', { initial: 'WebPage' }),
  status: stored('status', { initial: 'draft' }),
  publishedAt: instant('published_at'),
  seo: json('seo'),
});
