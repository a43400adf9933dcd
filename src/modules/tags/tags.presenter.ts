import type { TagRow } from '../../db/schema.js';
import { tagColumns } from './tags.columns.js';
import type { Tag, TagUpdateBody } from './tags.schemas.js';

export function presentTag(row: Pick<TagRow, 'id' | 'workspace_id' | 'slug' | 'name' | 'seo' | 'created_at'>): Tag {
  return {
    ...(tagColumns.read(row) as Required<TagUpdateBody>),
    id: row.id,
    workspaceId: row.workspace_id,
    createdAt: row.created_at,
  };
}
