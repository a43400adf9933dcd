import { htmlToBlocks, type BlockWrite, type ConversionResult } from '@quire/blocks';
import type { EditorBlock } from '../model.js';
import { dataUriImage } from './paste-image-data.js';
import { normaliseClipboardHtml } from './paste-html.js';
import { markdownPaste, plainParagraphs } from './paste-text.js';
import { pasteNotes } from './paste-notes.js';

/*
 * What a paste becomes: the clipboard's HTML (Google Docs, Word, a web page) or its text (plain or Markdown) as
 * blocks, through the shared converters of @quire/blocks, so a paste reads as an import of the same source would.
 * Nothing of the input is run, loaded or put in a document: it is parsed, and only text and blocks come out.
 */

export interface PastedImage {
  /** The index in `blocks` of the image block, its media still empty, that this file's upload fills. */
  index: number;
  file: File;
}

export interface PasteResult {
  blocks: EditorBlock[];
  /** What the paste did not keep as it was, in the writer's words. */
  notes: string[];
  /** Blocks past the room given (or the body's limit), not in `blocks`. */
  dropped: number;
  /** Images the paste held as data (data: URIs) to upload, each for an image block of `blocks`. */
  images: PastedImage[];
}

/**
 * Clipboard HTML above this many characters is not converted: its plain text is, with a note. The conversion's
 * time grows with the HTML, and a paste must not hold the writer's page for seconds.
 */
export const HTML_CAP = 5 * 1024 * 1024;
/** Text above this many characters is not read as Markdown (slower to read than HTML) but as plain paragraphs. */
export const MARKDOWN_CAP = 256 * 1024;

/** A stand-in media id for an image pasted as data, in the converter's blocks only (index into the files). */
const PENDING = '\u0000pasted-image:';

const blank = (block: BlockWrite) =>
  (block.type === 'paragraph' || block.type === 'quote') && block.text.trim() === '' && !('attribution' in block);

/** How many blocks the converter left out past the body's limit (its report says it in "truncated" notes). */
function pastLimit(result: ConversionResult): number {
  return result.report.notes
    .filter((note) => note.kind === 'truncated' && note.element === 'body')
    .reduce((sum, note) => sum + Number(/^(\d+) blocks/.exec(note.excerpt)?.[1] ?? 0), 0);
}

const noReport = (blocks: BlockWrite[]): ConversionResult => ({ blocks, report: { notes: [], images: [] } });

/**
 * The blocks a paste makes, at most `room` of them (the rest counted in `dropped`). HTML is preferred; the text is
 * read as Markdown when there is no HTML or the HTML gives nothing, and as plain paragraphs when it is long or
 * stands in for HTML over HTML_CAP.
 */
export function pastedBlocks(data: { html?: string; text?: string }, room: number): PasteResult {
  const files: File[] = [];
  const resolveImage = (src: string) => {
    if (!/^data:/i.test(src.trim())) return null;
    const file = dataUriImage(src, `pasted-image-${files.length + 1}`);
    if (file === null) return null;
    files.push(file);
    return `${PENDING}${files.length - 1}`;
  };
  const html = data.html ?? '';
  const text = data.text ?? '';
  const leading: string[] = [];
  let result: ConversionResult | undefined;
  let navigation = 0;
  if (html.trim() !== '' && html.length <= HTML_CAP) {
    const normalised = normaliseClipboardHtml(html);
    navigation = normalised.navigation;
    result = htmlToBlocks(normalised.html, { resolveImage });
    if (!result.blocks.some((block) => !blank(block)) && text.trim() !== '') {
      result = undefined;
      files.length = 0;
      navigation = 0;
    }
  } else if (html.trim() !== '') {
    leading.push(
      text.trim() === ''
        ? 'The paste was too large to read (over 5 MB): paste it in parts'
        : 'The paste was too large to keep its formatting (over 5 MB), so its plain text was pasted',
    );
    if (text.trim() !== '') result = noReport(plainParagraphs(text));
  }
  if (result === undefined && text.trim() !== '') {
    if (text.length <= MARKDOWN_CAP) result = markdownPaste(text, { resolveImage });
    else {
      leading.push('The text was too long to read as Markdown (over 256 KB), so it was pasted as plain paragraphs');
      result = noReport(plainParagraphs(text));
    }
  }
  if (result === undefined) return { blocks: [], notes: leading, dropped: 0, images: [] };

  const all = result.blocks.filter((block) => !blank(block));
  const fits = Math.max(0, Math.floor(room));
  const blocks: EditorBlock[] = [];
  const images: PastedImage[] = [];
  for (const block of all.slice(0, fits)) {
    if (block.type === 'image' && block.mediaId.startsWith(PENDING)) {
      images.push({ index: blocks.length, file: files[Number(block.mediaId.slice(PENDING.length))]! });
      blocks.push({ ...block, mediaId: '' });
    } else blocks.push(block as EditorBlock);
  }
  const imagesLeft = result.report.images.filter((image) => image.mediaId === null).length;
  return {
    blocks,
    notes: [...leading, ...pasteNotes({ notes: result.report.notes, imagesLeft, navigation })],
    dropped: all.length - blocks.length + pastLimit(result),
    images,
  };
}
