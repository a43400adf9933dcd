import { renderBlocks, renderInline, type Block } from '@quire/blocks';
import fc from 'fast-check';
import type { Node as PmNode } from 'prosemirror-model';
import { Transform } from 'prosemirror-transform';
import { describe, expect, it } from 'vitest';
import { blocksFromDoc, loadBody, nodeFromBlock } from '../../dashboard/src/studio/document/doc-blocks.js';
import { inlineToMarkdown } from '../../dashboard/src/studio/document/inline-markdown.js';
import { schema } from '../../dashboard/src/studio/document/schema.js';
import type { EditorBlock } from '../../dashboard/src/studio/model.js';
import { body } from './document-arbitraries.js';

const RUNS = 150;

/** The position of the start of the content of the top-level node at index. */
function contentStart(doc: PmNode, index: number): number {
  let pos = 0;
  for (let i = 0; i < index; i += 1) pos += doc.child(i).nodeSize;
  return pos + 1;
}

/** Every node of the document made new (no key): what the document would write with nothing to keep. */
function unkeyed(doc: PmNode): PmNode {
  const nodes: PmNode[] = [];
  doc.forEach((node) => nodes.push(node.type.create({ ...node.attrs, key: null }, node.content, node.marks)));
  return schema.nodes.doc!.create(null, nodes);
}

describe('the body as a document and back', () => {
  it('gives back every block of any body as the very object it came as', () => {
    fc.assert(
      fc.property(body, (blocks) => {
        const loaded = loadBody(blocks);
        const { blocks: out, at } = blocksFromDoc(loaded.doc, loaded);
        expect(out).toStrictEqual(blocks);
        out.forEach((block, index) => expect(block).toBe(blocks[index]));
        at.forEach((pos, index) => expect(loaded.doc.nodeAt(pos)?.attrs.key).toBe(index));
      }),
      { numRuns: RUNS },
    );
  });

  it('writes any body anew (nothing kept) as blocks that render as it did and write back as themselves', () => {
    fc.assert(
      fc.property(body, (blocks) => {
        // A paragraph of nothing to show is written as none. A stored heading has its id (an id derived from
        // the text would follow its Markdown, not what it shows).
        const stored = blocks
          .filter((block) => block.type !== 'paragraph' || renderInline(block.text) !== '')
          .map((block, index): EditorBlock =>
            block.type === 'heading' && !('id' in block)
              ? ({ ...(block as object), id: `h-${index}` } as EditorBlock)
              : block,
          );
        const loaded = loadBody(stored);
        const written = blocksFromDoc(unkeyed(loaded.doc), loaded).blocks;
        const listed = (list: EditorBlock[]) =>
          list.map((block) => (block.type === 'list' && block.items.length === 0 ? { ...block, items: [''] } : block));
        // A line ending is written `\n`; the page shows a `\r\n` the renderer passes through as the same. A code
        // span's line ending is written as the space a page shows it as (a code block's keeps its line endings).
        // A line break at the edge of emphasis shows the same inside it or out, and the document holds breaks
        // unmarked; marks on the same text show the same in either nesting, and the document holds them as a set.
        const render = (list: EditorBlock[]) =>
          renderBlocks(list as Block[])
            .replace(/\r\n?/g, '\n')
            .replace(/<(strong|em|del)>((?:<br>\n?)+)/g, '$2<$1>')
            .replace(/((?:<br>\n?)+)<\/(strong|em|del)>/g, '</$2>$1')
            .replace(
              /<(del|em)><(strong|em)>([^<]*)<\/\2><\/\1>/g,
              (all, outer: string, inner: string, text: string) =>
                outer === inner ? all : `<${inner}><${outer}>${text}</${outer}></${inner}>`,
            )
            .replace(
              /(?<!<pre(?: [^>]*)?>)<code>([^<]*)<\/code>/g,
              (_, text: string) => `<code>${text.replace(/\n/g, ' ')}</code>`,
            );
        expect(render(written)).toBe(render(listed(stored)));
        const again = loadBody(written);
        expect(blocksFromDoc(unkeyed(again.doc), again).blocks).toStrictEqual(written);
      }),
      { numRuns: RUNS },
    );
  });

  it('makes an empty body one empty paragraph, and writes it as no block', () => {
    const loaded = loadBody([]);
    expect(loaded.doc.childCount).toBe(1);
    expect(loaded.doc.firstChild!.type.name).toBe('paragraph');
    expect(loaded.doc.firstChild!.attrs.key).toBeNull();
    expect(blocksFromDoc(loaded.doc, loaded)).toEqual({ blocks: [], at: [] });
  });

  it('writes an edited block canonically and keeps the others as they came', () => {
    const blocks: EditorBlock[] = [
      { type: 'paragraph', text: 'First  __one__\nline' },
      { type: 'heading', level: 2, text: 'Head *one*', id: 'head' },
      { type: 'list', style: 'bullet', items: ['a', '_b_'] },
    ];
    const loaded = loadBody(blocks);
    const doc = new Transform(loaded.doc).insert(contentStart(loaded.doc, 0), schema.text('!')).doc;
    const { blocks: out } = blocksFromDoc(doc, loaded);
    expect(out[0]).toStrictEqual({ type: 'paragraph', text: '!First  **one**\nline' });
    expect(out[1]).toBe(blocks[1]);
    expect(out[2]).toBe(blocks[2]);
    // The same document asks for no second writing: the block is the one written before.
    expect(blocksFromDoc(doc, loaded).blocks[0]).toBe(out[0]);
  });

  it('gives back the exact object once an edit is undone, however the node was rebuilt', () => {
    const blocks: EditorBlock[] = [
      { type: 'paragraph', text: 'Kept   *as* __typed__' },
      { type: 'quote', text: 'Q', attribution: 'Ann' },
    ];
    const loaded = loadBody(blocks);
    const start = contentStart(loaded.doc, 0);
    const edited = new Transform(loaded.doc).insert(start, schema.text('xy'));
    const reverted = new Transform(edited.doc).delete(start, start + 2).doc;
    expect(reverted.child(0)).not.toBe(loaded.doc.child(0));
    const out = blocksFromDoc(reverted, loaded).blocks;
    expect(out[0]).toBe(blocks[0]);
    expect(out[1]).toBe(blocks[1]);
    // A block moved keeps its key, and with it its object.
    const moved = schema.nodes.doc!.create(null, [reverted.child(1), reverted.child(0)]);
    expect(blocksFromDoc(moved, loaded).blocks).toEqual([blocks[1], blocks[0]]);
    expect(blocksFromDoc(moved, loaded).blocks[0]).toBe(blocks[1]);
  });

  it('leaves out a blank line the writer left, and keeps a stored empty paragraph', () => {
    const blocks: EditorBlock[] = [
      { type: 'paragraph', text: '' },
      { type: 'paragraph', text: 'Text' },
    ];
    const loaded = loadBody(blocks);
    const blank = schema.nodes.paragraph!.create({ key: null });
    const doc = loaded.doc.copy(loaded.doc.content.append(schema.nodes.doc!.create(null, [blank]).content));
    const { blocks: out, at } = blocksFromDoc(doc, loaded);
    expect(out).toEqual(blocks);
    expect(out[0]).toBe(blocks[0]);
    expect(at).toEqual([0, 2]);
    // The paragraph emptied by the writer is a blank line too.
    const emptied = new Transform(loaded.doc).delete(contentStart(loaded.doc, 1), contentStart(loaded.doc, 1) + 4).doc;
    expect(blocksFromDoc(emptied, loaded).blocks).toEqual([blocks[0]]);
  });

  it('takes the id off the later of two headings with one id', () => {
    const blocks: EditorBlock[] = [
      { type: 'heading', level: 2, text: 'One', id: 'same' },
      { type: 'heading', level: 3, text: 'Two', id: 'same' },
      { type: 'heading', level: 2, text: 'Three', id: 'other' },
    ];
    const loaded = loadBody(blocks);
    const { blocks: out } = blocksFromDoc(loaded.doc, loaded);
    expect(out[0]).toBe(blocks[0]);
    expect(out[1]).toStrictEqual({ type: 'heading', level: 3, text: 'Two' });
    expect(out[2]).toBe(blocks[2]);
    const pasted = nodeFromBlock(blocks[2]!, null);
    const doc = loaded.doc.copy(loaded.doc.content.addToEnd(pasted));
    expect(blocksFromDoc(doc, loaded).blocks[3]).toStrictEqual({ type: 'heading', level: 2, text: 'Three' });
  });

  it('shows a block the surface cannot show as its source, and writes what is typed in it verbatim', () => {
    const text = 'An ![image](i.png) and <b>  raw</b>\n\n  indented \\';
    const loaded = loadBody([{ type: 'paragraph', text }]);
    const node = loaded.doc.child(0);
    expect(node.attrs.source).toBe(true);
    expect(inlineToMarkdown(node)).toBe(text);
    const edited = new Transform(loaded.doc).insert(node.nodeSize - 1, schema.text('*')).doc;
    expect(blocksFromDoc(edited, loaded).blocks).toStrictEqual([{ type: 'paragraph', text: `${text}*` }]);
  });

  it('keeps cards, code, dividers and list items as their fields', () => {
    const image: EditorBlock = { type: 'image', mediaId: '' };
    const blocks: EditorBlock[] = [
      image,
      { type: 'code', language: 'ts', code: 'const a = 1;\n\n  *b*' },
      { type: 'divider' },
      { type: 'list', style: 'ordered', items: [] },
    ];
    const loaded = loadBody(blocks);
    const fresh = blocksFromDoc(unkeyed(loaded.doc), loaded).blocks;
    expect(fresh[0]).toBe(image);
    expect(fresh.slice(1)).toStrictEqual([blocks[1], blocks[2], { type: 'list', style: 'ordered', items: [''] }]);
  });
});
