import { columnMap, computed, flag, json, stored, trimmed } from '../../db/columns.js';
import type { AuthorUpdateBody } from './authors.schemas.js';

/** Where each writable field of an author is kept (db/columns.ts): create, PATCH and the presenter read this. */
export const authorColumns = columnMap<AuthorUpdateBody>({
  // Claimed free, derived from the display name when left out.
  slug: computed('slug'),
  displayName: trimmed('display_name'),
  bio: stored('bio'),
  credentials: stored('credentials'),
  avatarMediaId: stored('avatar_media_id'),
  sameAs: json('same_as', { initial: [] }),
  isActive: flag('is_active', { initial: true }),
  seo: json('seo'),
  person: json('person'),
});
