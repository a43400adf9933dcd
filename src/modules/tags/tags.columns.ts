import { columnMap, computed, json, trimmed } from '../../db/columns.js';
import type { TagUpdateBody } from './tags.schemas.js';

/** Where each writable field of a tag is kept (db/columns.ts): create, PATCH and the presenter read this. */
export const tagColumns = columnMap<TagUpdateBody>({
  // Claimed free, derived from the name when left out.
  slug: computed('slug'),
  name: trimmed('name'),
  seo: json('seo'),
});
