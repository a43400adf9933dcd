import type { Nodes } from 'mdast';
import { parseInline, parsedText } from '../src/inline.js';

export { BLOCK_LIMITS, htmlToBlocks, markdownToBlocks, renderBlocks } from '../src/index.js';

/** What the renderer's inline parser reads an inline Markdown string as, as plain text. */
export const parseInlineForTest = (markdown: string): string => parsedText(markdown);

/** The URL of every link the renderer's inline parser finds in an inline Markdown string, decoded. */
export function linkUrlsForTest(markdown: string): string[] {
  const urls: string[] = [];
  const visit = (node: Nodes) => {
    if (node.type === 'link') urls.push(node.url);
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(parseInline(markdown));
  return urls;
}
