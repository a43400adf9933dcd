import type { MediaRow } from '../db/schema.js';
import { mediaUrl } from '../modules/media/media.presenter.js';
import type { Block, StoredBlock } from './blocks.schemas.js';

/** The read form of blocks: each image gets the url of its media, or null once the media is gone. */
export function enrichBlocks(
  blocks: readonly StoredBlock[],
  media: ReadonlyMap<string, MediaRow>,
  publicUrl: string,
): Block[] {
  return blocks.map((block) => {
    if (block.type !== 'image') return block;
    const row = media.get(block.mediaId);
    return { ...block, url: row ? mediaUrl(publicUrl, row) : null };
  });
}
