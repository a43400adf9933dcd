/*
 * Image files a paste brings: the types the media library keeps as images (src/modules/media/media.sniff.ts; it
 * also keeps PDFs and videos, which are no image block), and images written into pasted HTML as data: URIs, which
 * need no fetching and so can be uploaded.
 */

export const IMAGE_TYPES: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/svg+xml': 'svg',
};

export const isPastableImage = (file: { type: string }) => file.type.toLowerCase() in IMAGE_TYPES;

/** The bytes of a data URI's percent-encoded body: `%XX` as that byte, anything else as its UTF-8. */
function percentDecoded(body: string): Uint8Array<ArrayBuffer> {
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  for (let i = 0; i < body.length; i += 1) {
    const hex = body[i] === '%' ? body.slice(i + 1, i + 3) : '';
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
      continue;
    }
    const code = body.codePointAt(i)!;
    const char = String.fromCodePoint(code);
    bytes.push(...encoder.encode(char));
    i += char.length - 1;
  }
  return Uint8Array.from(bytes);
}

function base64Decoded(body: string): Uint8Array<ArrayBuffer> | null {
  try {
    const binary = atob(decodeURIComponent(body).replace(/[\s]/g, ''));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}

/**
 * The image a `data:` URI holds as a file named `name` (its extension added), or null when the URI is no image
 * of a type the library keeps, or does not decode.
 */
export function dataUriImage(uri: string, name: string): File | null {
  const match = /^data:([^,]*),(.*)$/is.exec(uri.trim());
  if (match === null) return null;
  const [type = '', ...parameters] = match[1]!.split(';').map((part) => part.trim().toLowerCase());
  const extension = IMAGE_TYPES[type];
  if (extension === undefined) return null;
  const bytes = parameters.includes('base64') ? base64Decoded(match[2]!) : percentDecoded(match[2]!);
  if (bytes === null || bytes.length === 0) return null;
  return new File([bytes], `${name}.${extension}`, { type });
}
