import type { Block, StoredBlock } from '@quire/blocks';
import type { MediaRow } from '../db/schema.js';
import { mediaUrl, placeholderOf, srcsetOf } from './images.js';

/** The read form of blocks: each image gets the url, size and srcset of its media, or url null once it is gone. */
export function enrichBlocks(
  blocks: readonly StoredBlock[],
  media: ReadonlyMap<string, MediaRow>,
  publicUrl: string,
): Block[] {
  return blocks.map((block) => {
    if (block.type !== 'image') return block;
    const row = media.get(block.mediaId);
    // Once the media is gone the block reads as the specification has it: url null and nothing more.
    if (!row) return { ...block, url: null };
    return {
      ...block,
      url: mediaUrl(publicUrl, row),
      width: row.width,
      height: row.height,
      srcset: srcsetOf(publicUrl, row),
      placeholder: placeholderOf(row),
    };
  });
}
