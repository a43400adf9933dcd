import {
  BLOCK_LIMITS,
  excerptOf,
  htmlToBlocks,
  markdownToBlocks,
  type BlockWrite,
  type ConversionNote,
  type ConversionResult,
  type ConvertOptions,
  type ImageRef,
} from '@quire/blocks';
import { storableDeep } from './ghost-text.js';

/*
 * A Ghost body becomes a list of segments, each converted by the converter that knows it best: HTML written for
 * the editor's own nodes and for its cards (htmlToBlocks), a Markdown card's Markdown (markdownToBlocks), or
 * blocks made directly. Each card is a segment of its own, so a card's HTML left unclosed cannot spill into the
 * content after it.
 */

export type Segment =
  | { kind: 'html'; html: string; notes: ConversionNote[] }
  | { kind: 'markdown'; markdown: string; notes: ConversionNote[] }
  | { kind: 'blocks'; blocks: BlockWrite[]; notes: ConversionNote[] };

/** A note about a Lexical node, its excerpt the start of the node's JSON. */
export function nodeNote(kind: ConversionNote['kind'], element: string, node: unknown): ConversionNote {
  return { kind, element, excerpt: excerptOf(JSON.stringify(node) ?? '') };
}

/** Blocks past the body's limit left out, with a note, as htmlToBlocks does for its own. */
function withinBody(blocks: BlockWrite[], notes: ConversionNote[]): BlockWrite[] {
  if (blocks.length <= BLOCK_LIMITS.blocksPerBody) return blocks;
  const left = blocks.length - BLOCK_LIMITS.blocksPerBody;
  notes.push({
    kind: 'truncated',
    element: 'body',
    excerpt: `${left} blocks past the limit of ${BLOCK_LIMITS.blocksPerBody}`,
  });
  return blocks.slice(0, BLOCK_LIMITS.blocksPerBody);
}

/** The segments as one result: blocks and notes in the order of the body, the body's limits applied once. */
export function convertSegments(segments: readonly Segment[], options: ConvertOptions): ConversionResult {
  const blocks: BlockWrite[] = [];
  const notes: ConversionNote[] = [];
  const images: ImageRef[] = [];
  for (const segment of segments) {
    notes.push(...segment.notes);
    if (segment.kind === 'blocks') {
      blocks.push(...segment.blocks);
      continue;
    }
    const result =
      segment.kind === 'html' ? htmlToBlocks(segment.html, options) : markdownToBlocks(segment.markdown, options);
    blocks.push(...result.blocks);
    notes.push(...result.report.notes);
    images.push(...result.report.images);
  }
  // Each conversion fitted its own blocks to their limits; the count of blocks in the body is only known here.
  return storableDeep({ blocks: withinBody(blocks, notes), report: { notes, images } });
}
