import type { Media } from '../types';

/** The optional responsive fields a media object may carry (issue 24); older servers send none. */
interface Responsive {
  srcset?: Record<string, { width: number; url: string }[]>;
  placeholder?: { dataUri?: string; color?: string } | null;
}

/**
 * The smallest derivative at least `width` pixels wide, for a grid cell; WebP first because every browser the
 * dashboard supports shows it. Falls back to the original when the server made no derivatives (SVG, GIF, PDF).
 */
export function thumbnailUrl(media: Media, width = 320): string {
  const srcset = (media as Media & Responsive).srcset;
  const ladder = srcset?.webp ?? srcset?.original ?? [];
  const fit = ladder.find((entry) => entry.width >= width) ?? ladder[ladder.length - 1];
  return fit?.url ?? media.url;
}

export function placeholderColor(media: Media): string | undefined {
  return (media as Media & Responsive).placeholder?.color;
}

export function isImage(media: Media): boolean {
  return media.mimeType.startsWith('image/');
}

/** The name a person knows an item by: its alt text, or else its filename. */
export function mediaName(media: Media): string {
  return media.alt?.trim() || media.filename;
}
