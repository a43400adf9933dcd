/**
 * What a file is, from its first bytes: the client's Content-Type and filename are never trusted.
 * Quire keeps the types a site embeds (raster images, SVG, PDF, MP4 video); anything else, HTML and
 * executables included, is refused, so nothing stored can ever be served as active content.
 */
export interface FileKind {
  mimeType: string;
  extension: string;
  /** Raster images have pixel dimensions in their header and are served inline. */
  raster: boolean;
}

const kind = (mimeType: string, extension: string, raster: boolean): FileKind => ({ mimeType, extension, raster });

export const KINDS = {
  png: kind('image/png', 'png', true),
  jpeg: kind('image/jpeg', 'jpg', true),
  gif: kind('image/gif', 'gif', true),
  webp: kind('image/webp', 'webp', true),
  avif: kind('image/avif', 'avif', true),
  svg: kind('image/svg+xml', 'svg', false),
  pdf: kind('application/pdf', 'pdf', false),
  mp4: kind('video/mp4', 'mp4', false),
} as const;

export const ACCEPTED_TYPES = Object.values(KINDS).map((k) => k.mimeType);

/** How many leading bytes settle any binary type; text (SVG) may need up to SNIFF_TEXT_BYTES. */
const SNIFF_BINARY_BYTES = 64;
export const SNIFF_TEXT_BYTES = 64 * 1024;

const ascii = (bytes: Buffer, start: number, end: number) => bytes.toString('latin1', start, end);
const startsWith = (bytes: Buffer, signature: readonly number[]) => signature.every((byte, i) => bytes[i] === byte);

const MP4_BRANDS = new Set([
  'isom',
  'iso2',
  'iso3',
  'iso4',
  'iso5',
  'iso6',
  'mp41',
  'mp42',
  'avc1',
  'dash',
  'mmp4',
  'M4V ',
]);

/** ISO base media (`ftyp` box first): AVIF images and MP4 video share the container. */
function isoBmff(bytes: Buffer): FileKind | null {
  if (bytes.length < 12 || ascii(bytes, 4, 8) !== 'ftyp') return null;
  const boxEnd = Math.min(bytes.readUInt32BE(0), bytes.length);
  const major = ascii(bytes, 8, 12);
  const compatible: string[] = [];
  for (let at = 16; at + 4 <= boxEnd; at += 4) compatible.push(ascii(bytes, at, at + 4));
  if (major === 'avif' || major === 'avis' || (major === 'mif1' && compatible.includes('avif'))) return KINDS.avif;
  if (MP4_BRANDS.has(major)) return KINDS.mp4;
  return null;
}

/**
 * An SVG document: optional BOM, XML declaration, comments, processing instructions and a doctype
 * (its internal subset included), then an `<svg` root. `undefined` while more text is needed.
 */
function svg(bytes: Buffer, complete: boolean): FileKind | null | undefined {
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  const prolog = /\s*(?:<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^[>]*(?:\[[\s\S]*?\]\s*)?>)/iy;
  let at = 0;
  while (prolog.exec(text)) at = prolog.lastIndex;
  const rest = text.slice(at).trimStart();
  const root = rest.slice(0, 5);
  // The whole start tag is awaited too: its width, height and viewBox are the dimensions.
  if (/^<svg[\s>/]$/.test(root)) return complete || rest.includes('>') ? KINDS.svg : undefined;
  // Still inside the prolog, or the root's name is cut short: wait for more bytes.
  const unfinished = root.length < 5 || /^<(?:\?|!)/.test(root);
  return !complete && unfinished && (root.startsWith('<') || root === '') ? undefined : null;
}

/**
 * The kind of a file from its leading bytes; `complete` says they are the whole file. Returns
 * `undefined` when more bytes are needed to decide, and null for a type Quire does not keep.
 */
export function sniff(head: Buffer, complete: boolean): FileKind | null | undefined {
  if (!complete && head.length < SNIFF_BINARY_BYTES) return undefined;
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return KINDS.png;
  if (startsWith(head, [0xff, 0xd8, 0xff])) return KINDS.jpeg;
  if (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a') return KINDS.gif;
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return KINDS.webp;
  if (ascii(head, 0, 5) === '%PDF-') return KINDS.pdf;
  const iso = isoBmff(head);
  if (iso) return iso;
  return svg(head, complete || head.length >= SNIFF_TEXT_BYTES);
}
