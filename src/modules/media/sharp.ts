import type Sharp from 'sharp';

let loaded: Promise<typeof Sharp> | undefined;

/**
 * sharp (libvips), loaded at the first image a process handles: every `quire` command and server loads the media
 * module, and most commands and many server runs never touch a pixel.
 */
export function loadSharp(): Promise<typeof Sharp> {
  return (loaded ??= import('sharp').then(({ default: sharp }) => {
    // The process-wide cache would hold decoded originals between requests; memory is bounded by the gate instead.
    sharp.cache(false);
    return sharp;
  }));
}
