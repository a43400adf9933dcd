import { uploadErrorWords, uploadMedia } from '../../media/upload.js';
import { isPastableImage } from './paste-image-data.js';

/*
 * Image files pasted or dropped into the writing surface (and images a paste held as data, paste.ts) go to the
 * media library, one after another, each becoming an image block where it was pasted. One at a time: a paste of
 * many screenshots must not take the writer's whole connection, and each result can be shown as it comes.
 */

export type PastedUpload = { mediaId: string; alt: string; url: string | null } | { error: string };

export interface ImageToUpload {
  file: File;
  /** The alt text the paste gave it (an `<img alt>`); stored on the media too. */
  alt?: string;
}

export const NOT_AN_IMAGE = 'Only images can be pasted here. Use a JPEG, PNG, GIF, WebP, AVIF or SVG image.';

/**
 * Uploads each file in turn and says how each went, in the order given: `onEach` as each is settled, and all of
 * them at the end. A file of a type the library keeps as no image is refused without being sent; the server's
 * refusals (too big, a type it does not keep, a damaged image) come in uploadErrorWords' words. Once `signal`
 * aborts, the files not yet sent are settled as cancelled.
 */
export async function uploadPastedImages(
  workspaceId: string,
  files: ReadonlyArray<File | ImageToUpload>,
  onEach?: (result: PastedUpload, index: number) => void,
  signal?: AbortSignal,
): Promise<PastedUpload[]> {
  const results: PastedUpload[] = [];
  for (const [index, entry] of files.entries()) {
    const { file, alt = '' } = entry instanceof File ? { file: entry } : entry;
    let result: PastedUpload;
    if (!isPastableImage(file)) result = { error: NOT_AN_IMAGE };
    else if (signal?.aborted) result = { error: 'The upload was cancelled.' };
    else
      try {
        const media = await uploadMedia(workspaceId, file, { ...(alt === '' ? {} : { alt }), signal });
        // The server tells a file's type from its bytes: one named an image may have been something else.
        result = media.mimeType.startsWith('image/')
          ? { mediaId: media.id, alt, url: media.url ?? null }
          : { error: NOT_AN_IMAGE };
      } catch (error) {
        result = { error: uploadErrorWords(error) };
      }
    results.push(result);
    onEach?.(result, index);
  }
  return results;
}
