import { describe, expect, it } from 'vitest';
import {
  avif,
  GIF_3X2,
  isoBox as box,
  isoFtyp as ftyp,
  JPEG_3X2,
  jpegDeclaring,
  png,
  SVG,
  WEBP_LOSSLESS_3X2,
  WEBP_LOSSY_3X2,
} from '../../../test/helpers/media.js';
import { headerDimensions, JpegScanner } from './media.dimensions.js';
import { safeFilename } from './media.filename.js';
import { KINDS, sniff, SNIFF_TEXT_BYTES } from './media.sniff.js';

describe('sniff: the type comes from the bytes', () => {
  it.each([
    ['PNG', png(2, 2), KINDS.png],
    ['JPEG', JPEG_3X2, KINDS.jpeg],
    ['GIF', GIF_3X2, KINDS.gif],
    ['WebP', WEBP_LOSSY_3X2, KINDS.webp],
    ['AVIF', avif(4, 3), KINDS.avif],
    ['MP4', Buffer.concat([ftyp('isom', 'isom', 'mp41'), box('mdat', Buffer.alloc(64))]), KINDS.mp4],
    ['PDF', Buffer.from('%PDF-1.7\n%%EOF\n'), KINDS.pdf],
    ['SVG', SVG, KINDS.svg],
    ['SVG with a BOM and no prolog', Buffer.from('\uFEFF<svg xmlns="http://www.w3.org/2000/svg"/>'), KINDS.svg],
    [
      'SVG behind a doctype with an internal subset',
      Buffer.from(
        '<?xml version="1.0"?>\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd" [\n<!ENTITY ns "http://www.w3.org/2000/svg">\n]>\n<svg width="1" height="1"></svg>',
      ),
      KINDS.svg,
    ],
  ])('%s', (_name, bytes, expected) => {
    expect(sniff(bytes, true)).toBe(expected);
  });

  it.each([
    ['HTML', '<!DOCTYPE html><html><body><svg></svg></body></html>'],
    ['XML that is not SVG', '<?xml version="1.0"?><feed/>'],
    ['an svg element name prefix', '<svgfoo/>'],
    ['plain text', 'hello world'],
    ['a Windows executable', 'MZ\x90\x00\x03'],
    ['an empty file', ''],
    ['QuickTime', ftyp('qt  ', 'qt  ').toString('latin1')],
    ['HEIC', ftyp('heic', 'mif1', 'heic').toString('latin1')],
  ])('refuses %s', (_name, text) => {
    expect(sniff(Buffer.from(text, 'latin1'), true)).toBeNull();
  });

  it('waits for more bytes while a text file may still turn out to be SVG', () => {
    expect(sniff(Buffer.from('\x89PNG'), false)).toBeUndefined();
    const comment = Buffer.from(`<!-- ${'x'.repeat(1000)}`);
    expect(sniff(comment, false)).toBeUndefined();
    expect(sniff(comment, true)).toBeNull();
    expect(sniff(Buffer.from(`<!-- ${'x'.repeat(SNIFF_TEXT_BYTES)}`), false)).toBeNull();
    expect(sniff(Buffer.from(`${' '.repeat(100)}<html>`), false)).toBeNull();
    // An SVG root is settled only with its whole start tag, which carries the size.
    expect(sniff(Buffer.from(`<svg width="10" ${' '.repeat(100)}`), false)).toBeUndefined();
    expect(sniff(Buffer.from(`<svg width="10" ${' '.repeat(100)}>`), false)).toBe(KINDS.svg);
  });
});

describe('dimensions: read from the header, never decoded', () => {
  it.each([
    ['PNG', KINDS.png, png(640, 480, { pixels: false }), 640, 480],
    ['GIF', KINDS.gif, GIF_3X2, 3, 2],
    ['lossy WebP', KINDS.webp, WEBP_LOSSY_3X2, 3, 2],
    ['lossless WebP', KINDS.webp, WEBP_LOSSLESS_3X2, 3, 2],
    ['AVIF', KINDS.avif, avif(1920, 1080), 1920, 1080],
    ['SVG width and height', KINDS.svg, SVG, 120, 80],
    ['SVG viewBox only', KINDS.svg, Buffer.from('<svg viewBox="0 0 24.4 12"/>'), 24, 12],
    ['SVG in px', KINDS.svg, Buffer.from(`<svg width='10px' height="20px">`), 10, 20],
  ])('%s', (_name, kind, bytes, width, height) => {
    expect(headerDimensions(kind, bytes)).toEqual({ width, height });
  });

  it('an extended WebP (VP8X) gives its canvas size', () => {
    const vp8x = Buffer.alloc(30);
    vp8x.write('RIFF', 0, 'latin1');
    vp8x.write('WEBPVP8X', 8, 'latin1');
    vp8x.writeUIntLE(4095, 24, 3);
    vp8x.writeUIntLE(2047, 27, 3);
    expect(headerDimensions(KINDS.webp, vp8x)).toEqual({ width: 4096, height: 2048 });
  });

  it('SVG in other units, or without any size, has none', () => {
    expect(headerDimensions(KINDS.svg, Buffer.from('<svg width="10cm" height="5cm"/>'))).toBeNull();
    expect(headerDimensions(KINDS.svg, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
  });

  it('a JPEG frame is found however the bytes are chunked, past segments of any size', () => {
    const app1 = Buffer.concat([Buffer.from([0xff, 0xe1, 0x80, 0x02]), Buffer.alloc(0x8000, 0xff)]);
    const bytes = Buffer.concat([JPEG_3X2.subarray(0, 2), app1, JPEG_3X2.subarray(2)]);
    for (const size of [1, 7, 4096, bytes.length]) {
      const scanner = new JpegScanner();
      for (let at = 0; at < bytes.length && !scanner.done; at += size) scanner.feed(bytes.subarray(at, at + size));
      expect(scanner.dimensions, `chunks of ${size}`).toEqual({ width: 3, height: 2 });
    }
    const huge = new JpegScanner();
    huge.feed(jpegDeclaring(10_000, 5_000));
    expect(huge.dimensions).toEqual({ width: 10_000, height: 5_000 });
  });

  it('a JPEG whose scan starts before any frame has no dimensions', () => {
    const scanner = new JpegScanner();
    scanner.feed(Buffer.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x08, 1, 2, 3, 4, 5, 6]));
    expect(scanner).toMatchObject({ done: true, dimensions: null });
  });
});

describe('safeFilename', () => {
  it.each([
    ['photo.JPG', 'jpg', 'photo.jpg'],
    ['My Holiday Photo.jpeg', 'jpg', 'my-holiday-photo.jpg'],
    ['../../etc/passwd', 'png', 'passwd.png'],
    ['C:\\fakepath\\Résumé.pdf', 'pdf', 'resume.pdf'],
    ['x.php.png', 'png', 'x-php.png'],
    ['.htaccess', 'png', 'file.png'],
    ['日本語.png', 'png', 'file.png'],
    ['', 'gif', 'file.gif'],
    [`${'a'.repeat(300)}.png`, 'png', `${'a'.repeat(100)}.png`],
  ])('%j → %s', (given, extension, expected) => {
    expect(safeFilename(given, extension)).toBe(expected);
  });
});
