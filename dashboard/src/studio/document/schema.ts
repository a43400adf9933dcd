import { Schema, type DOMOutputSpec, type Node as PmNode } from 'prosemirror-model';

/*
 * The body as one ProseMirror document (docs/decisions.md, "The writing surface"). Paragraphs, headings, quotes
 * and lists are text the writer types into; code is text too (a code block); a divider is a leaf; the other seven
 * block types are cards, atoms whose one attribute is the block itself, edited in place by their own fields.
 *
 * Every top-level node carries `key`: the index into the blocks the document was made from, so that a block the
 * writer did not touch (or changed and changed back) is written back as the exact object it came as
 * (doc-blocks.ts). Text blocks carry `source`: their Markdown holds something the surface cannot show as
 * formatting (raw HTML, an image, a reference…), so it is shown and edited as Markdown source, and written back as
 * typed.
 */

const key = { default: null as number | null };

/** An attribute of a parsed element (the module is also loaded by the node tests, which have no DOM types). */
const attribute = (dom: unknown, name: string) =>
  (dom as { getAttribute(name: string): string | null }).getAttribute(name);
const source = { default: false };

const withSource = (node: PmNode, tag: string, attrs: Record<string, string> = {}): DOMOutputSpec => [
  tag,
  node.attrs.source ? { ...attrs, class: 'md-source', spellcheck: 'false' } : attrs,
  0,
];

export const schema = new Schema({
  nodes: {
    doc: { content: 'block+' },
    paragraph: {
      group: 'block',
      content: 'inline*',
      attrs: { key, source },
      parseDOM: [{ tag: 'p' }],
      toDOM: (node) => withSource(node, 'p'),
    },
    heading: {
      group: 'block',
      content: 'inline*',
      defining: true,
      attrs: { key, source, level: { default: 2 }, id: { default: null as string | null } },
      parseDOM: [2, 3, 4].map((level) => ({ tag: `h${level}`, attrs: { level } })),
      toDOM: (node) => withSource(node, `h${node.attrs.level as number}`),
    },
    quote: {
      group: 'block',
      content: 'inline*',
      defining: true,
      attrs: { key, source, attribution: { default: null as string | null } },
      parseDOM: [{ tag: 'blockquote' }],
      toDOM: (node) => withSource(node, 'blockquote'),
    },
    list: {
      group: 'block',
      content: 'list_item+',
      attrs: { key, style: { default: 'bullet' as 'bullet' | 'ordered' } },
      parseDOM: [
        { tag: 'ul', attrs: { style: 'bullet' } },
        { tag: 'ol', attrs: { style: 'ordered' } },
      ],
      toDOM: (node) => [node.attrs.style === 'ordered' ? 'ol' : 'ul', 0],
    },
    list_item: {
      content: 'inline*',
      defining: true,
      attrs: { source },
      parseDOM: [{ tag: 'li' }],
      toDOM: (node) => withSource(node, 'li'),
    },
    code_block: {
      group: 'block',
      content: 'text*',
      marks: '',
      code: true,
      defining: true,
      attrs: { key, language: { default: '' } },
      parseDOM: [
        {
          tag: 'pre',
          preserveWhitespace: 'full',
          getAttrs: (dom) => ({ language: attribute(dom, 'data-language') ?? '' }),
        },
      ],
      toDOM: (node) => ['pre', { 'data-language': node.attrs.language as string }, ['code', 0]],
    },
    divider: {
      group: 'block',
      atom: true,
      attrs: { key },
      parseDOM: [{ tag: 'hr' }],
      toDOM: () => ['div', { class: 'divider-card' }, ['hr']],
    },
    /** image, callout, video_embed, tweet_embed, faq, cta, key_takeaways: `block` is the block object itself. */
    card: {
      group: 'block',
      atom: true,
      selectable: true,
      draggable: true,
      // `upload`: a token while a pasted image's upload is on its way, to find the card again however the writer
      // moved or edited it meanwhile; never part of the block.
      attrs: { key, block: {}, upload: { default: null as string | null } },
      // The block travels in the clipboard as JSON, so a card copied inside the editor pastes back whole. A card
      // pasted from elsewhere is only block data: the server validates it as any other.
      parseDOM: [{ tag: 'div[data-block]', getAttrs: (dom) => cardAttrs(attribute(dom, 'data-block')) }],
      toDOM: (node) => [
        'div',
        {
          class: 'card',
          'data-block-type': (node.attrs.block as { type: string }).type,
          'data-block': JSON.stringify(node.attrs.block),
        },
      ],
    },
    text: { group: 'inline' },
    /** A line break inside a block: `soft` is a plain line ending of the Markdown (shown as a space on the page). */
    hard_break: {
      group: 'inline',
      inline: true,
      selectable: false,
      attrs: { soft: { default: false } },
      parseDOM: [{ tag: 'br' }],
      toDOM: (node) => (node.attrs.soft ? ['br', { class: 'soft-break' }] : ['br']),
    },
  },
  marks: {
    link: {
      attrs: { href: {}, title: { default: null as string | null } },
      inclusive: false,
      parseDOM: [
        {
          tag: 'a[href]',
          getAttrs: (dom) => ({ href: attribute(dom, 'href'), title: attribute(dom, 'title') }),
        },
      ],
      toDOM: (mark) => ['a', { href: mark.attrs.href as string, title: mark.attrs.title as string | null }, 0],
    },
    em: { parseDOM: [{ tag: 'em' }, { tag: 'i' }], toDOM: () => ['em', 0] },
    strong: { parseDOM: [{ tag: 'strong' }, { tag: 'b' }], toDOM: () => ['strong', 0] },
    strike: { parseDOM: [{ tag: 'del' }, { tag: 's' }], toDOM: () => ['del', 0] },
    code: { excludes: '_', parseDOM: [{ tag: 'code' }], toDOM: () => ['code', 0] },
  },
});

function cardAttrs(json: string | null): { block: unknown } | false {
  try {
    const block = JSON.parse(json ?? '') as unknown;
    const type = (block as { type?: unknown } | null)?.type;
    return typeof type === 'string' && (CARD_TYPES as readonly string[]).includes(type) ? { block } : false;
  } catch {
    return false;
  }
}

/** The block types that are cards (everything not typed as text, a code block or a divider). */
export const CARD_TYPES = ['image', 'callout', 'video_embed', 'tweet_embed', 'faq', 'cta', 'key_takeaways'] as const;
