import type { MediaRow } from '../../db/schema.js';
import { mediaColumns } from './media.columns.js';
import type { Media, MediaUpdateBody } from './media.schemas.js';
import { mediaUrl, placeholderOf, srcsetOf } from '../../blocks/images.js';

// Posts and pages present image URLs too; the block format owns how one is made.

export function presentMedia(publicUrl: string, row: MediaRow): Media {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    url: mediaUrl(publicUrl, row),
    storagePath: row.storage_path,
    filename: row.filename,
    mimeType: row.mime_type,
    ...(mediaColumns.read(row) as Required<MediaUpdateBody>),
    sizeBytes: Number(row.size_bytes),
    width: row.width,
    height: row.height,
    uploadedByUserId: row.uploaded_by_user_id,
    uploadedByApiKeyId: row.uploaded_by_api_key_id,
    createdAt: row.created_at,
    srcset: srcsetOf(publicUrl, row),
    placeholder: placeholderOf(row),
  };
}
