import type { TagRow } from '../../db/schema.js';
import { parseJson } from '../../shared/json.js';
import type { Seo } from '../seo/seo.schemas.js';
import type { Tag } from './tags.schemas.js';

export function presentTag(row: Pick<TagRow, 'id' | 'workspace_id' | 'slug' | 'name' | 'seo' | 'created_at'>): Tag {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    slug: row.slug,
    name: row.name,
    seo: parseJson<Seo>(row.seo),
    createdAt: row.created_at,
  };
}
