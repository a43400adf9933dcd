import { Type, type Static } from 'typebox';
import { Timestamp, Uuid } from '../../shared/schemas.js';
import { NullableSeo } from '../seo/seo.schemas.js';

export const Tag = Type.Object({
  id: Uuid,
  workspaceId: Uuid,
  slug: Type.String(),
  name: Type.String(),
  seo: NullableSeo,
  createdAt: Timestamp,
});
export type Tag = Static<typeof Tag>;
