import { element } from '../escape.js';
import type { CalloutBlock, CalloutVariant } from '../types.js';
import type { RenderContext } from './context.js';

const VARIANTS: ReadonlySet<CalloutVariant> = new Set(['info', 'warning', 'success', 'error']);

/** A note beside the text (role note: not a landmark of its own), its variant a class. */
export function callout(block: CalloutBlock, context: RenderContext): string {
  const variant = VARIANTS.has(block.variant) ? block.variant : 'info';
  const title = context.isBlank(block.title)
    ? ''
    : element('p', [['class', 'quire-callout__title']], context.inline(block.title));
  return element(
    'aside',
    [
      ['class', `quire-callout quire-callout--${variant}`],
      ['role', 'note'],
    ],
    title + element('p', [], context.inline(block.body)),
  );
}
