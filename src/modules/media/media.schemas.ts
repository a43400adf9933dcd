import { Type, type Static } from 'typebox';
import { Nullable, Timestamp, Uuid } from '../../shared/schemas.js';

export const Media = Type.Object({
  id: Uuid,
  workspaceId: Uuid,
  url: Type.String(),
  storagePath: Type.String(),
  filename: Type.String(),
  mimeType: Type.String(),
  alt: Nullable(Type.String()),
  caption: Nullable(Type.String()),
  sizeBytes: Type.Integer(),
  width: Nullable(Type.Integer()),
  height: Nullable(Type.Integer()),
  uploadedByUserId: Nullable(Uuid),
  uploadedByApiKeyId: Nullable(Uuid),
  createdAt: Timestamp,
});
export type Media = Static<typeof Media>;
