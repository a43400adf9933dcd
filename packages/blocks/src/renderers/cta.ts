import { element } from '../escape.js';
import type { CtaBlock } from '../types.js';
import { safeUrl } from '../url.js';
import type { RenderContext } from './context.js';

/** A heading, its text and one link styled as a button; a link that may not be one is its label alone. */
export function cta(block: CtaBlock, context: RenderContext): string {
  const variant = block.variant === 'outlined' ? 'outlined' : 'default';
  const href = safeUrl(block.linkUrl, context.base);
  const label = context.inline(block.linkLabel, false);
  const action =
    href === null
      ? element('span', [['class', 'quire-cta__button']], label)
      : element(
          'a',
          [
            ['class', 'quire-cta__button'],
            ['href', href],
          ],
          label,
        );
  return element(
    'section',
    [['class', `quire-cta quire-cta--${variant}`]],
    element('h2', [['class', 'quire-cta__title']], context.inline(block.title)) +
      element('p', [], context.inline(block.body)) +
      element('p', [['class', 'quire-cta__action']], action),
  );
}
