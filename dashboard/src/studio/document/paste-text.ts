import {
  BLOCK_LIMITS,
  escapeMarkdown,
  markdownToBlocks,
  type ConversionResult,
  type ConvertOptions,
  type ParagraphBlock,
} from '@quire/blocks';

/*
 * Pasted text: as Markdown, or as plain paragraphs where reading it as Markdown is not wanted or would take too
 * long.
 *
 * Markdown is read in pieces. The Markdown parser's time grows faster than the text where containers
 * (lists, quotes) repeat, so a long paste is read as pieces of about PIECE characters, cut only where no
 * construct can go on across the cut; a short one is read whole.
 */

export const PIECE = 16 * 1024;

/** A line a cut may come before (after a blank line): text at the margin that opens no list, quote or HTML. */
const FRESH = /^[^\s>*+\-\d|<`~\\[]/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** HTML that Markdown keeps as it stands up to its end tag, blank lines and all (CommonMark's HTML blocks 1 and 2). */
const RAW_OPEN = /^ {0,3}<(?:(script|pre|style|textarea)(?=[\s>]|$)|!--)/i;
const RAW_CLOSE = /<\/(?:script|pre|style|textarea)>|-->/i;
/** A one-line reference definition: each piece gets all of them, so a link finds its definition in any piece. */
const DEFINITION = /^ {0,3}\[(?:[^\]\\\n]|\\.)+\]:[ \t]*\S.*$/gm;
/** Definitions are copied into every piece only while that stays cheap. */
const DEFINITIONS_MAX = 64 * 1024;

export function markdownPieces(text: string): string[] {
  if (text.length <= 2 * PIECE) return [text];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const pieces: string[] = [];
  let piece: string[] = [];
  let size = 0;
  let fence: string | undefined;
  let blank = false;
  let raw = false;
  for (const line of lines) {
    if (fence === undefined && !raw && blank && size >= PIECE && FRESH.test(line)) {
      pieces.push(piece.join('\n'));
      piece = [];
      size = 0;
    }
    piece.push(line);
    size += line.length + 1;
    if (!raw && fence === undefined && RAW_OPEN.test(line)) raw = !RAW_CLOSE.test(line.replace(RAW_OPEN, ''));
    else if (raw && RAW_CLOSE.test(line)) raw = false;
    const marker = FENCE.exec(line)?.[1];
    if (fence === undefined && marker !== undefined) fence = marker;
    else if (
      fence !== undefined &&
      marker !== undefined &&
      marker[0] === fence[0] &&
      marker.length >= fence.length &&
      line.trim() === marker
    )
      fence = undefined;
    blank = line.trim() === '';
  }
  pieces.push(piece.join('\n'));
  return pieces;
}

/** Text as blocks through markdownToBlocks (see above); the report's notes and images are the pieces' in order. */
export function markdownPaste(text: string, options: ConvertOptions): ConversionResult {
  const pieces = markdownPieces(text);
  if (pieces.length === 1) return markdownToBlocks(text, options);
  const definitions = text.match(DEFINITION)?.join('\n') ?? '';
  const extra = definitions !== '' && definitions.length <= DEFINITIONS_MAX ? `\n\n${definitions}\n` : '';
  const result: ConversionResult = { blocks: [], report: { notes: [], images: [] } };
  for (const piece of pieces) {
    const part = markdownToBlocks(piece + extra, options);
    result.blocks.push(...part.blocks);
    result.report.notes.push(...part.report.notes);
    result.report.images.push(...part.report.images);
  }
  return result;
}

/** The longest start of `text` within `max` characters, cut at a space when one is near, and never in an escape. */
function cut(text: string, max: number): [head: string, rest: string] {
  if (text.length <= max) return [text, ''];
  const space = text.lastIndexOf(' ', max);
  let at = space > max / 2 ? space : max;
  // An odd run of backslashes before the cut ends in an escape, which goes with the character it escapes.
  let slashes = 0;
  while (slashes < at && text[at - 1 - slashes] === '\\') slashes += 1;
  if (slashes % 2 === 1) at -= 1;
  return [text.slice(0, at).trimEnd(), text.slice(at).trimStart()];
}

/**
 * Text as paragraphs of that text and nothing else (no Markdown read into it): parted at blank lines, escaped so
 * that it reads back as itself, a paragraph over the limit made into several.
 */
export function plainParagraphs(text: string): ParagraphBlock[] {
  const paragraphs: ParagraphBlock[] = [];
  for (const part of text.replace(/\r\n?/g, '\n').split(/\n[ \t]*\n\s*/)) {
    let rest = escapeMarkdown(part.trim());
    while (rest !== '') {
      const [head, tail] = cut(rest, BLOCK_LIMITS.paragraphText);
      paragraphs.push({ type: 'paragraph', text: head });
      rest = tail;
    }
  }
  return paragraphs;
}
