import { element, escapeHtml } from '../escape.js';
import type { KeyTakeawaysBlock } from '../types.js';
import type { RenderContext } from './context.js';

export function keyTakeaways(block: KeyTakeawaysBlock, context: RenderContext): string {
  const items = block.items.map((item) => element('li', [], context.inline(item))).join('');
  return element(
    'aside',
    [['class', 'quire-takeaways']],
    element('h2', [['class', 'quire-takeaways__title']], escapeHtml(context.keyTakeawaysTitle)) +
      element('ul', [], items),
  );
}
