import { columnMap, stored } from '../../db/columns.js';
import type { MediaUpdateBody } from './media.schemas.js';

/** Where each writable field of a media item is kept (db/columns.ts); the bytes and what they say never change. */
export const mediaColumns = columnMap<MediaUpdateBody>({
  alt: stored('alt'),
  caption: stored('caption'),
});
