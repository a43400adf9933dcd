import type { Node as PmNode } from 'prosemirror-model';
import type { EditorBlock } from '../model.js';
import { inlineFromMarkdown, inlineToMarkdown, sourceNodes } from './inline-markdown.js';
import { CARD_TYPES, schema } from './schema.js';

/*
 * The body (its blocks) as one ProseMirror document and back. A block the writer left as it was, or changed and
 * changed back, is given back as the very object it came as, so its Markdown stays exactly as stored; any other is
 * written in the canonical form of inline-markdown.ts.
 */

/** A body made into a document: the document, the blocks it was made from, and the node made for each block. */
export interface Loaded {
  doc: PmNode;
  origin: readonly EditorBlock[];
  built: readonly PmNode[];
}

const { paragraph, heading, quote, list, list_item: listItem, code_block: codeBlock, divider, card } = schema.nodes;
const CARDS: ReadonlySet<string> = new Set(CARD_TYPES);

/** The inline content of a text field, and whether it is shown as its Markdown source. */
function textContent(markdown: string): { source: boolean; nodes: PmNode[] } {
  const { nodes, showable } = inlineFromMarkdown(markdown);
  return showable ? { source: false, nodes } : { source: true, nodes: sourceNodes(markdown) };
}

/** The node of one block; `key` is its index in the blocks a document is made from (null: a new block). */
export function nodeFromBlock(block: EditorBlock, key: number | null): PmNode {
  switch (block.type) {
    case 'paragraph': {
      const { source, nodes } = textContent(block.text);
      return paragraph!.create({ key, source }, nodes);
    }
    case 'heading': {
      const { source, nodes } = textContent(block.text);
      const id = 'id' in block && typeof block.id === 'string' ? block.id : null;
      return heading!.create({ key, source, level: block.level, id }, nodes);
    }
    case 'quote': {
      const { source, nodes } = textContent(block.text);
      return quote!.create({ key, source, attribution: block.attribution ?? null }, nodes);
    }
    case 'list': {
      // A list holds at least one item: a stored list of none is shown with one empty item.
      const items = (block.items.length > 0 ? block.items : ['']).map((item) => {
        const { source, nodes } = textContent(item);
        return listItem!.create({ source }, nodes);
      });
      return list!.create({ key, style: block.style }, items);
    }
    case 'code':
      return codeBlock!.create({ key, language: block.language }, block.code === '' ? [] : schema.text(block.code));
    case 'divider':
      return divider!.create({ key });
    default:
      if (!CARDS.has(block.type)) throw new TypeError(`No node for a block of type ${String(block.type)}`);
      return card!.create({ key, block });
  }
}

/** The document of a body, with what blocksFromDoc needs to give untouched blocks back as they came. */
export function loadBody(blocks: readonly EditorBlock[]): Loaded {
  const built = blocks.map((block, index) => nodeFromBlock(block, index));
  // A document holds at least one block: an empty body is one empty paragraph of no block.
  const doc = schema.nodes.doc!.create(null, built.length > 0 ? built : [paragraph!.create({ key: null })]);
  return { doc, origin: blocks, built };
}

/** Serialized nodes: a node is immutable, so its block is worked out once. */
const written = new WeakMap<PmNode, EditorBlock>();

function blockOfNode(node: PmNode): EditorBlock {
  let block = written.get(node);
  if (block === undefined) {
    block = writeBlock(node);
    written.set(node, block);
  }
  return block;
}

function writeBlock(node: PmNode): EditorBlock {
  const attrs = node.attrs;
  switch (node.type) {
    case paragraph:
      return { type: 'paragraph', text: inlineToMarkdown(node) };
    case heading: {
      const text = inlineToMarkdown(node);
      const level = attrs.level as 2 | 3 | 4;
      // Without an id the server derives one from the text.
      return (
        attrs.id === null ? { type: 'heading', level, text } : { type: 'heading', level, text, id: attrs.id }
      ) as EditorBlock;
    }
    case quote:
      return attrs.attribution === null
        ? { type: 'quote', text: inlineToMarkdown(node) }
        : { type: 'quote', text: inlineToMarkdown(node), attribution: attrs.attribution as string };
    case list: {
      const items: string[] = [];
      node.forEach((item) => items.push(inlineToMarkdown(item)));
      return { type: 'list', style: attrs.style as 'bullet' | 'ordered', items };
    }
    case codeBlock:
      return { type: 'code', language: attrs.language as string, code: node.textContent };
    case divider:
      return { type: 'divider' };
    case card:
      return attrs.block as EditorBlock;
    default:
      throw new TypeError(`No block for a node of type ${node.type.name}`);
  }
}

/** The block a top-level node stands for: its origin block when it is the node built for it, else its own. */
function blockOf(node: PmNode, loaded: Loaded): EditorBlock {
  const key = node.attrs.key as number | null;
  if (key !== null) {
    const built = loaded.built[key];
    if (built !== undefined && (built === node || built.eq(node))) return loaded.origin[key]!;
  }
  return blockOfNode(node);
}

const headingId = (block: EditorBlock) =>
  block.type === 'heading' && 'id' in block && typeof block.id === 'string' ? block.id : undefined;

/**
 * The blocks of a document and, for each, the position of its node. Empty paragraphs the writer left (blank
 * lines, or a paragraph emptied) are no blocks; a stored empty paragraph left as it was stays one. Of two
 * headings with one id the later loses it, as the server refuses equal ids and derives a new one.
 */
export function blocksFromDoc(doc: PmNode, loaded: Loaded): { blocks: EditorBlock[]; at: number[] } {
  const blocks: EditorBlock[] = [];
  const at: number[] = [];
  const ids = new Set<string>();
  doc.forEach((node, offset) => {
    let block = blockOf(node, loaded);
    if (block.type === 'paragraph' && block.text === '') {
      const key = node.attrs.key as number | null;
      if (key === null || loaded.origin[key] !== block) return;
    }
    const id = headingId(block);
    if (id !== undefined) {
      if (ids.has(id)) {
        const { id: _dropped, ...rest } = block as EditorBlock & { id: string };
        block = rest as EditorBlock;
      } else ids.add(id);
    }
    blocks.push(block);
    at.push(offset);
  });
  return { blocks, at };
}
