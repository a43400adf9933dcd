import type { StoredBlock } from '@quire/blocks';
import type { AuthorRow, CategoryRow, MediaRow, StoredPost } from '../../db/schema.js';
import type { SiteSettings } from '../workspaces/site-settings.js';
import type { Tag } from '../tags/tags.schemas.js';
import type { RelatedRow } from './posts.repository.js';

/** A post row with its two stored bodies parsed once. */
export interface ParsedPost {
  row: StoredPost;
  body: StoredBlock[];
  structuredBlocks: StoredBlock[];
}

/** Everything the posts of one response embed, each kind loaded in one query whatever the page size. */
export interface PostEmbeds {
  settings: SiteSettings;
  tags: Map<string, Tag[]>;
  related: Map<string, RelatedRow[]>;
  authors: Map<string, AuthorRow>;
  categories: Map<string, CategoryRow>;
  media: Map<string, MediaRow>;
}
