import { columnMap, computed, flag, json, stored, trimmed, type ColumnSpec } from '../../db/columns.js';
import { parseJson } from '../../shared/json.js';
import {
  COLLECTION_METADATA_DEFAULTS,
  type CategoryUpdateBody,
  type CollectionMetadata,
} from './categories.schemas.js';

/** Stored whole, every key present: a write that leaves one out gets its default. */
const metadataJson = (metadata: unknown) =>
  JSON.stringify({ ...COLLECTION_METADATA_DEFAULTS, ...(metadata as CollectionMetadata | undefined) });

const collectionMetadata: ColumnSpec = {
  kind: 'stored',
  column: 'collection_metadata',
  write: metadataJson,
  read: (value) => parseJson(value as string | null),
  initial: metadataJson(undefined),
};

/** Where each writable field of a category is kept (db/columns.ts): create, PATCH and the presenter read this. */
export const categoryColumns = columnMap<CategoryUpdateBody>({
  // Claimed free, derived from the name when left out.
  slug: computed('slug'),
  name: trimmed('name'),
  description: stored('description'),
  // Checked to be a category of the workspace that is not a descendant (categories.service.ts).
  parentId: stored('parent_id'),
  sortOrder: stored('sort_order', { initial: 0 }),
  isActive: flag('is_active', { initial: true }),
  seo: json('seo'),
  collectionMetadata,
});
