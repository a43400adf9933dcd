import { element } from '../escape.js';
import type { FaqBlock } from '../types.js';
import type { RenderContext } from './context.js';

/** Each question a disclosure; a summary holds no link (a control inside a control). */
export function faq(block: FaqBlock, context: RenderContext): string {
  const items = block.items
    .map((item) =>
      element(
        'details',
        [],
        element('summary', [], context.inline(item.question, false)) + element('p', [], context.inline(item.answer)),
      ),
    )
    .join('');
  return element('section', [['class', 'quire-faq']], items);
}
