import { KINDS, type FileKind } from './media.sniff.js';

/** Pixel dimensions as an image's header declares them; nothing is ever decoded. */
export interface Dimensions {
  width: number;
  height: number;
}

function png(head: Buffer): Dimensions | null {
  if (head.length < 24 || head.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
}

function gif(head: Buffer): Dimensions | null {
  return head.length < 10 ? null : { width: head.readUInt16LE(6), height: head.readUInt16LE(8) };
}

/** The three WebP flavours: lossy (VP8), lossless (VP8L) and extended (VP8X, canvas size). */
function webp(head: Buffer): Dimensions | null {
  if (head.length < 30) return null;
  const chunk = head.toString('latin1', 12, 16);
  if (chunk === 'VP8 ' && head[23] === 0x9d && head[24] === 0x01 && head[25] === 0x2a) {
    return { width: head.readUInt16LE(26) & 0x3fff, height: head.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === 'VP8L' && head[20] === 0x2f) {
    const bits = head.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { width: head.readUIntLE(24, 3) + 1, height: head.readUIntLE(27, 3) + 1 };
  return null;
}

/** AVIF: the `ispe` property inside meta → iprp → ipco, walked box by box. */
function avif(head: Buffer): Dimensions | null {
  const find = (start: number, end: number, path: readonly string[]): Dimensions | null => {
    for (let at = start; at + 8 <= end;) {
      const size = head.readUInt32BE(at);
      const type = head.toString('latin1', at + 4, at + 8);
      const boxEnd = size === 0 ? end : at + size;
      if (size < 8 && size !== 0) return null;
      if (type === path[0]) {
        if (path.length === 1)
          return boxEnd <= head.length && size >= 20
            ? { width: head.readUInt32BE(at + 12), height: head.readUInt32BE(at + 16) }
            : null;
        // `meta` is a full box: four bytes of version and flags come before its children.
        return find(at + (type === 'meta' ? 12 : 8), Math.min(boxEnd, head.length), path.slice(1));
      }
      at = boxEnd;
    }
    return null;
  };
  return find(0, head.length, ['meta', 'iprp', 'ipco', 'ispe']);
}

/** A CSS length in px (or unitless) as a whole number of pixels; other units have no pixel size. */
function svgLength(value: string | undefined): number | null {
  const match = value?.trim().match(/^(\d+(?:\.\d+)?|\.\d+)(px)?$/);
  return match ? Math.round(Number(match[1])) : null;
}

/** SVG: the root's width and height, else its viewBox; null when it declares neither. */
function svg(head: Buffer): Dimensions | null {
  const tag = head.toString('utf8').match(/<svg[\s>/][^>]*>?/)?.[0] ?? '';
  const attribute = (name: string) =>
    tag
      .match(new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`))
      ?.slice(1)
      .find((v) => v !== undefined);
  const box = attribute('viewBox')
    ?.trim()
    .split(/[\s,]+/)
    .map(Number);
  const viewBox =
    box?.length === 4 && box.every(Number.isFinite)
      ? { width: Math.round(box[2]!), height: Math.round(box[3]!) }
      : null;
  const width = svgLength(attribute('width')) ?? viewBox?.width ?? null;
  const height = svgLength(attribute('height')) ?? viewBox?.height ?? null;
  return width !== null && height !== null && width > 0 && height > 0 ? { width, height } : null;
}

const READERS = new Map<FileKind, (head: Buffer) => Dimensions | null>([
  [KINDS.png, png],
  [KINDS.gif, gif],
  [KINDS.webp, webp],
  [KINDS.avif, avif],
  [KINDS.svg, svg],
]);

/** Dimensions read from the leading bytes of a file of `kind`; JPEG needs a JpegScanner instead. */
export function headerDimensions(kind: FileKind, head: Buffer): Dimensions | null {
  return READERS.get(kind)?.(head) ?? null;
}

// Start-of-frame markers carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not.
const isStartOfFrame = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
const isStandalone = (marker: number) => marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);

/**
 * Finds a JPEG's frame size however far into the file it is (EXIF and ICC segments can fill many
 * kilobytes first), skipping segments as the bytes stream past and holding at most nine of them.
 */
export class JpegScanner {
  dimensions: Dimensions | null = null;
  /** Set once the scan is over: the frame was found, or the segments ran into image data or garbage. */
  done = false;
  private pending: number[] = [];
  private skip = 0;

  feed(chunk: Buffer): void {
    for (let i = 0; i < chunk.length && !this.done;) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, chunk.length - i);
        this.skip -= n;
        i += n;
        continue;
      }
      this.pending.push(chunk[i]!);
      i += 1;
      this.step();
    }
  }

  private step(): void {
    const p = this.pending;
    if (p[0] !== 0xff) return this.finish();
    if (p.length < 2) return;
    const marker = p[1]!;
    if (marker === 0xff) return void p.shift(); // fill byte before a marker
    if (isStandalone(marker)) return void (this.pending = []);
    if (marker === 0xd9 || marker === 0xda) return this.finish(); // end of image, or scan data before any frame
    if (p.length < 4) return;
    const length = (p[2]! << 8) | p[3]!;
    if (length < 2) return this.finish();
    if (!isStartOfFrame(marker)) {
      this.skip = length - 2;
      this.pending = [];
      return;
    }
    if (p.length < 9) return;
    this.dimensions = { width: (p[7]! << 8) | p[8]!, height: (p[5]! << 8) | p[6]! };
    this.finish();
  }

  private finish(): void {
    this.done = true;
    this.pending = [];
  }
}
