import { element, escapeHtml } from '../escape.js';
import type { CodeBlock } from '../types.js';

/**
 * The language as a class token highlighters know (`language-ts`): lowercased, letters, digits and `+ # _ -`
 * only, so `C++`, `C#` and `objective-c` survive and nothing else can reach the class attribute.
 */
export function languageToken(language: string): string {
  return language
    .toLowerCase()
    .replace(/[^a-z0-9+#_-]+/g, '')
    .slice(0, 50);
}

/** Focusable, so a reader without a mouse can scroll a long line into view. */
export function code(block: CodeBlock): string {
  const language = languageToken(block.language);
  const inner = element('code', [['class', language ? `language-${language}` : undefined]], escapeHtml(block.code));
  return element(
    'pre',
    [
      ['tabindex', 0],
      ['data-language', language || undefined],
    ],
    inner,
  );
}
