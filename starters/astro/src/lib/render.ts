import { renderBlocks, type Block } from '@quire/blocks';
import type { Item } from '../../lib/store.mjs';

/** A body through Quire's renderer: the same HTML Quire's own `formats=html` gives. */
export function bodyHtml(blocks: unknown): string {
  return Array.isArray(blocks) ? renderBlocks(blocks as Block[]) : '';
}

/**
 * A media item as a figure of the same renderer (AVIF and WebP sources, srcset, sizes, placeholder). The image at
 * the top of a page is its largest paint: it loads at once and first, where the renderer's default is lazy.
 */
export function mediaHtml(media: Item | undefined, options: { sizes?: string; eager?: boolean; alt?: string } = {}) {
  if (!media?.url) return '';
  const html = renderBlocks(
    [
      {
        type: 'image',
        mediaId: media.id,
        url: media.url,
        srcset: media.srcset,
        width: media.width,
        height: media.height,
        placeholder: media.placeholder,
        alt: options.alt ?? media.alt ?? '',
      } as Block,
    ],
    options.sizes ? { sizes: options.sizes } : {},
  );
  return options.eager ? html.replace(' loading="lazy"', ' fetchpriority="high"') : html;
}

const DATE = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' });
export const longDate = (iso: string | null | undefined) => (iso ? DATE.format(new Date(iso)) : '');
