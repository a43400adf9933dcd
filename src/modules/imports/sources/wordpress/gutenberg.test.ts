import { describe, expect, it } from 'vitest';
import { hasBlocks, joinInner, parseBlocks, type ParsedBlock } from './gutenberg.js';

/** A block tree as `name(inner…)`, to compare shapes at a glance. */
const shape = (blocks: ParsedBlock[]): string[] =>
  blocks.map((block) =>
    block.innerBlocks.length === 0 ? String(block.name) : `${block.name}(${shape(block.innerBlocks).join(',')})`,
  );

describe('the block grammar', () => {
  it('reads blocks, core/ added to names without a namespace, attributes as JSON, HTML between as freeform', () => {
    const blocks = parseBlocks(
      '<p>before</p>\n<!-- wp:paragraph {"align":"center"} -->\n<p>x</p>\n<!-- /wp:paragraph -->',
    );
    expect(blocks).toEqual([
      { name: null, attrs: {}, innerBlocks: [], innerContent: ['<p>before</p>\n'] },
      { name: 'core/paragraph', attrs: { align: 'center' }, innerBlocks: [], innerContent: ['\n<p>x</p>\n'] },
    ]);
  });

  it('reads nested blocks, self-closing ones and namespaced names', () => {
    const content =
      '<!-- wp:columns --><div><!-- wp:column --><div><!-- wp:yoast/faq-block {"questions":[]} /-->' +
      '<!-- wp:image {"id":1} --><img src="a.jpg"><!-- /wp:image --></div><!-- /wp:column --></div><!-- /wp:columns -->';
    const blocks = parseBlocks(content);
    expect(shape(blocks)).toEqual(['core/columns(core/column(yoast/faq-block,core/image))']);
    expect(joinInner(blocks[0]!, (inner) => `[${inner.name}]`)).toBe('<div>[core/column]</div>');
  });

  it('ignores a closer without its opener, and closes what was never closed', () => {
    expect(
      shape(parseBlocks('<!-- /wp:quote --><!-- wp:quote --><!-- wp:paragraph --><p>a</p><!-- /wp:quote -->')),
    ).toEqual(['core/quote(core/paragraph)']);
    expect(shape(parseBlocks('<!-- wp:group --><p>open</p>'))).toEqual(['core/group']);
  });

  it('keeps attributes that are not JSON as none, and other comments as HTML', () => {
    const [block] = parseBlocks('<!-- wp:image {not json} --><!-- a comment --><!-- /wp:image -->');
    expect(block).toMatchObject({ name: 'core/image', attrs: {}, innerContent: ['<!-- a comment -->'] });
  });

  it('tells block content from classic', () => {
    expect(hasBlocks('<!-- wp:separator /-->')).toBe(true);
    expect(hasBlocks('<p>Classic</p><!--more-->')).toBe(false);
    expect(hasBlocks('<!-- wp:Invalid -->')).toBe(false);
  });
});
