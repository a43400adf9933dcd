import { bodyText, plainText } from '@quire/blocks';
import type { Block } from '../types.js';

const LEAD_WORDS = 6;
/** Enough Markdown for the first words even behind a long link target, without parsing a whole long block. */
const LEAD_SOURCE = 1_000;

/**
 * The first words a reader sees of a block, to name it on a button that jumps to it: "" for a block without
 * text (an image without caption, a divider, code).
 */
export function blockLead(block: Block): string {
  const words = plainText(bodyText([block]).slice(0, LEAD_SOURCE))
    .split(/\s+/u)
    .filter(Boolean);
  const lead = words.slice(0, LEAD_WORDS).join(' ');
  return words.length > LEAD_WORDS ? `${lead}…` : lead;
}
