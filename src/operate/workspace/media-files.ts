import { sniff, SNIFF_TEXT_BYTES } from '../../modules/media/media.sniff.js';

/** What an archived media file holds, read once to its end: its size and the type its first bytes say. */
export interface MediaFileFacts {
  bytes: number;
  mimeType: string | null;
}

export async function checkMediaFile(chunks: AsyncIterable<Buffer>): Promise<MediaFileFacts> {
  const head: Buffer[] = [];
  let headBytes = 0;
  let bytes = 0;
  for await (const chunk of chunks) {
    bytes += chunk.length;
    if (headBytes < SNIFF_TEXT_BYTES) {
      head.push(chunk.subarray(0, SNIFF_TEXT_BYTES - headBytes));
      headBytes += head[head.length - 1]!.length;
    }
  }
  const kind = sniff(Buffer.concat(head), headBytes === bytes);
  return { bytes, mimeType: kind ? kind.mimeType : null };
}

/**
 * Why a media row and its file disagree, or null: a URL promises the row's size and serves the row's type,
 * so both must be the file's, as an upload records them from the bytes.
 */
export function mediaFileProblem(row: Record<string, unknown>, file: MediaFileFacts): string | null {
  if (row.size_bytes !== file.bytes)
    return `size_bytes says ${String(row.size_bytes)} bytes; its file has ${file.bytes}`;
  if (row.mime_type !== file.mimeType)
    return `mime_type says ${String(row.mime_type)}; the bytes of its file are ${file.mimeType ?? 'of no type Quire accepts'}`;
  return null;
}
