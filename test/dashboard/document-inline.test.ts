import { parseInline, renderInline } from '@quire/blocks';
import fc from 'fast-check';
import { parseFragment } from 'parse5';
import { Fragment, type Mark, type Node as PmNode } from 'prosemirror-model';
import { describe, expect, it } from 'vitest';
import {
  inlineFromMarkdown,
  inlineToMarkdown,
  sourceNodes,
} from '../../dashboard/src/studio/document/inline-markdown.js';
import { schema } from '../../dashboard/src/studio/document/schema.js';
import { inlineContent, inlineMarkdown } from './document-arbitraries.js';

const RUNS = 300;
const { em, strong, strike, code, link } = schema.marks;
const text = (value: string, ...marks: Mark[]) => schema.text(value, marks);
const soft = () => schema.nodes.hard_break!.create({ soft: true });
const hard = () => schema.nodes.hard_break!.create({ soft: false });
const md = (...nodes: PmNode[]) => inlineToMarkdown(Fragment.fromArray(nodes));

/** Each non-white-space character of inline content with the names of its marks (a link with its href). */
function styled(nodes: Iterable<PmNode>): string[] {
  const out: string[] = [];
  for (const node of nodes)
    if (node.isText)
      for (const char of node.text!.replace(/\0/g, '\uFFFD'))
        if (!/\s/u.test(char))
          out.push(
            `${char} ${node.marks
              .map((mark) => (mark.type === link ? `link:${mark.attrs.href as string}` : mark.type.name))
              .sort()
              .join(',')}`,
          );
  return out;
}
/** What HTML shows: each character and line break with the elements around it, in no order of nesting. */
function shown(html: string): string[] {
  const out: string[] = [];
  type Html = { nodeName: string; value?: string; attrs?: { name: string; value: string }[]; childNodes?: Html[] };
  const walk = (node: Html, around: string[]) => {
    if (node.nodeName === '#text')
      for (const char of node.value!)
        // A line ending in a code span shows as the space it is written as (a page collapses it so).
        out.push(
          `${char === '\n' && around.some((tag) => tag.startsWith('code')) ? ' ' : char} ${[...new Set(around)].sort().join(' ')}`,
        );
    else if (node.nodeName === 'br') out.push('<br>');
    else {
      const inside =
        node.nodeName === '#document-fragment' ? around : [...around, `${node.nodeName}${JSON.stringify(node.attrs)}`];
      for (const child of node.childNodes ?? []) walk(child, inside);
    }
  };
  walk(parseFragment(html) as unknown as Html, []);
  return out;
}

const nodesOf = (fragment: Fragment) => {
  const nodes: PmNode[] = [];
  fragment.forEach((node) => nodes.push(node));
  return nodes;
};

describe('inline Markdown read as the content the surface holds', () => {
  it('reads marks, code, links and both kinds of line break', () => {
    const { nodes, showable } = inlineFromMarkdown('a **b** *c* ~~d~~ `e` [f](/g "h")\nnext  \nhard');
    expect(showable).toBe(true);
    expect(
      Fragment.fromArray(nodes).eq(
        Fragment.fromArray([
          text('a '),
          text('b', strong!.create()),
          text(' '),
          text('c', em!.create()),
          text(' '),
          text('d', strike!.create()),
          text(' '),
          text('e', code!.create()),
          text(' '),
          text('f', link!.create({ href: '/g', title: 'h' })),
          soft(),
          text('next'),
          hard(),
          text('hard'),
        ]),
      ),
    ).toBe(true);
  });

  it('reads a blank line as two line endings, and writes them back as one', () => {
    const { nodes, showable } = inlineFromMarkdown('one\n\n\ntwo');
    expect(showable).toBe(true);
    expect(nodes.map((node) => node.type.name)).toEqual(['text', 'hard_break', 'hard_break', 'text']);
    expect(inlineToMarkdown(nodes)).toBe('one\n\ntwo');
  });

  it('skips the parse of a string with nothing Markdown reads, and keeps it as it is', () => {
    const { nodes, showable } = inlineFromMarkdown('Plain words, 1. and # and > too');
    expect(showable).toBe(true);
    expect(nodes).toHaveLength(1);
    expect(nodes[0]!.text).toBe('Plain words, 1. and # and > too');
    expect(inlineFromMarkdown('').nodes).toEqual([]);
  });

  it('is showable when the page shows the same, whatever the order marks nest in', () => {
    for (const markdown of ['**_a_**', '*[a](/u)*', '_a_ __b__', '~~**a**~~ *b*'])
      expect([markdown, inlineFromMarkdown(markdown).showable]).toEqual([markdown, true]);
    expect(inlineToMarkdown(inlineFromMarkdown('**_a_**').nodes)).toBe('***a***');
    // Emphasis lets go of the space at its edge (inside the link), which the page shows emphasized.
    expect(inlineFromMarkdown('*[a ](/u)*').showable).toBe(false);
  });

  it('is not showable when the surface cannot show it as the page does', () => {
    expect(inlineFromMarkdown('an ![image](i.png) here').showable).toBe(false);
    expect(inlineFromMarkdown('**bold `code` inside**').showable).toBe(false);
    expect(inlineFromMarkdown('[`code` link](/x)').showable).toBe(false);
    // A link with no text is an anchor on the page with nothing in the document to carry it.
    expect(inlineFromMarkdown('[](/x)').showable).toBe(false);
    expect(inlineFromMarkdown('a [](/x) b').showable).toBe(false);
    expect(inlineFromMarkdown('[  \n](/x)**').showable).toBe(false);
    // Twin links apart by a line break only, which would be written back as one link.
    expect(inlineFromMarkdown('[l](/a)  \n[l](/a)').showable).toBe(false);
    // Emphasis `*` opens here but an escaped `\~` would not let it: written, it would be let go of.
    expect(inlineFromMarkdown('word*~*').showable).toBe(false);
    // Raw HTML is text in a text field: shown, and written back escaped.
    expect(inlineFromMarkdown('<b>x</b>').showable).toBe(true);
    expect(inlineToMarkdown(inlineFromMarkdown('<b>x</b>').nodes)).toBe('\\<b>x\\</b>');
  });

  it('gives a source block its text as typed', () => {
    const markdown = 'a ![i](u)\n\n  b \\\n';
    expect(inlineToMarkdown(schema.nodes.paragraph!.create({ source: true }, sourceNodes(markdown)))).toBe(markdown);
  });
});

describe('the canonical Markdown of inline content', () => {
  it('writes nested and overlapping marks well-formed', () => {
    const s = strong!.create();
    const e = em!.create();
    const nested = md(text('a', s), text('b', s, e), text('c', e));
    expect(nested).toBe('**a*b****c*');
    expect(inlineFromMarkdown(nested).nodes.map(String)).toEqual(['strong("a")', 'em(strong("b"))', 'em("c")']);
    expect(md(text('x', e), text('y', s))).toBe('*x***y**');
  });

  it('moves white space out of emphasis, and escapes what would open a construct', () => {
    expect(md(text(' a ', em!.create()), text('b'))).toBe('*a* b');
    expect(md(text('a!'), text('b', link!.create({ href: '/x', title: null })))).toBe('a\\![b](/x)');
    expect(md(text('*a* _b_ `c` [d] <e> ~~f~~ &amp; \\'))).toBe(
      '\\*a\\* \\_b\\_ \\`c\\` \\[d\\] \\<e> \\~\\~f\\~\\~ \\&amp; \\\\',
    );
  });

  it('gives code spans enough backticks', () => {
    expect(md(text('a`b', code!.create()))).toBe('``a`b``');
    expect(md(text('`', code!.create()))).toBe('`` ` ``');
    expect(md(text(' a ', code!.create()))).toBe('`  a  `');
  });

  it('drops line breaks Markdown cannot hold where they are', () => {
    expect(md(hard(), text('a'), hard())).toBe('\\\na');
    expect(md(soft(), text('a  '), soft(), text('  b'))).toBe('a\nb');
    expect(md(text('a'), hard(), soft(), text('b'))).toBe('a\\\nb');
    expect(md(text('a'), soft(), soft(), soft(), hard(), text('b'))).toBe('a\n\n\\\nb');
  });

  it('lets go of emphasis Markdown cannot close where it stands', () => {
    const out = md(text('(a)', em!.create()), text('b'));
    expect(inlineToMarkdown(inlineFromMarkdown(out).nodes)).toBe(out);
    expect(inlineFromMarkdown(out).showable).toBe(true);
  });

  it('writes any link address and title so that it reads back as it was', () => {
    const piece = fc.oneof(
      fc.constantFrom('a', ' ', '\\', '<', '>', '(', ')', '"', "'", '&amp;', '&', '\t', '%20', 'ü', '*', '[', ']', '`'),
      fc.constantFrom('https://q.example/', '#', '?q=1', 'mailto:'),
      fc.string({ maxLength: 2 }),
    );
    const part = fc.array(piece, { maxLength: 6 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(part, fc.option(part), fc.constantFrom('t', 'a*b', ' x '), (href, title, label) => {
        const linked = schema.text(label, [link!.create({ href, title })]);
        const read = inlineFromMarkdown(md(linked));
        expect(read.nodes.map((node) => node.text).join('')).toBe(label.trim());
        expect(read.nodes[0]!.marks.map((mark) => mark.attrs)).toEqual([{ href, title: title || null }]);
      }),
      { numRuns: RUNS },
    );
  });

  it('writes a line ending of an address percent-encoded, and of a title as a space', () => {
    const read = inlineFromMarkdown(md(text('t', link!.create({ href: '/a\nb\0', title: 'x\r\ny' }))));
    expect(read.nodes[0]!.marks[0]!.attrs).toEqual({ href: '/a%0Ab\uFFFD', title: 'x y' });
  });

  it('is one form: written, read and written again it is the same, and shows as it reads', () => {
    fc.assert(
      fc.property(inlineContent, (content) => {
        const markdown = inlineToMarkdown(content);
        const read = inlineFromMarkdown(markdown);
        expect(read.showable).toBe(true);
        expect(inlineToMarkdown(read.nodes)).toBe(markdown);
      }),
      { numRuns: RUNS },
    );
  });

  it('keeps every character, its code and its link; emphasis only where Markdown can write it', () => {
    let kept = 0;
    let all = 0;
    fc.assert(
      fc.property(inlineContent, (content) => {
        const before = styled(nodesOf(content));
        const after = styled(inlineFromMarkdown(inlineToMarkdown(content)).nodes);
        expect(after.map((s) => s.split(' ')[0])).toEqual(before.map((s) => s.split(' ')[0]));
        before.forEach((entry, index) => {
          const was = new Set(entry.split(' ')[1]!.split(',').filter(Boolean));
          const is = new Set(after[index]!.split(' ')[1]!.split(',').filter(Boolean));
          for (const mark of is) expect(was.has(mark)).toBe(true);
          for (const mark of was) if (mark === 'code' || mark.startsWith('link:')) expect(is.has(mark)).toBe(true);
        });
        all += 1;
        if (after.join('\n') === before.join('\n')) kept += 1;
      }),
      { numRuns: RUNS },
    );
    // Letting go of emphasis is for the odd case, not the rule. The bound sits several standard errors below the
    // share random samples of this size give, so that no sample fails it by chance.
    expect(kept / all).toBeGreaterThan(0.8);
  });

  it('of any inline Markdown: one form, and when showable it renders as the input', () => {
    fc.assert(
      fc.property(inlineMarkdown, (markdown) => {
        const read = inlineFromMarkdown(markdown);
        const canonical = inlineToMarkdown(read.nodes);
        if (read.showable) expect(shown(renderInline(canonical))).toEqual(shown(renderInline(markdown)));
        const again = inlineFromMarkdown(canonical);
        expect(again.showable).toBe(true);
        expect(inlineToMarkdown(again.nodes)).toBe(canonical);
      }),
      { numRuns: RUNS },
    );
  });

  it('is not showable for any node type the schema has no mark for', () => {
    fc.assert(
      fc.property(inlineMarkdown, (markdown) => {
        const types = new Set<string>();
        const walk = (node: { type: string; children?: unknown[] }) => {
          types.add(node.type);
          for (const child of node.children ?? []) walk(child as { type: string });
        };
        walk(parseInline(markdown));
        const known = ['root', 'paragraph', 'text', 'emphasis', 'strong', 'delete', 'inlineCode', 'link', 'break'];
        if ([...types].some((type) => !known.includes(type))) expect(inlineFromMarkdown(markdown).showable).toBe(false);
      }),
      { numRuns: RUNS },
    );
  });
});
