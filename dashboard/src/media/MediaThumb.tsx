import type { Media } from '../types';
import { isImage, placeholderColor, thumbnailUrl } from './thumbnail';

/**
 * A media item's tile picture: a resized copy the server made, over its dominant colour until it loads; a file
 * that is no image shows its type instead. Decorative: the button around it carries the item's name.
 */
export function MediaThumb({ item, width }: { item: Media; width: 160 | 320 }) {
  return isImage(item) ? (
    <img src={thumbnailUrl(item, width)} alt="" loading="lazy" style={{ backgroundColor: placeholderColor(item) }} />
  ) : (
    <span className="media-file" aria-hidden="true">
      {item.mimeType.split('/')[1]?.toUpperCase() ?? 'FILE'}
    </span>
  );
}
