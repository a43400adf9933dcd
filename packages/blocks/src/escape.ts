/*
 * The one escaper of the renderer. Every piece of text and every attribute value goes through it, so no input can
 * open a tag, close an attribute or start a character reference of its own.
 */

const SPECIAL = /[&<>"'\0]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Text safe in element content and in a quoted attribute value. A NUL or a lone surrogate (which HTML parsers
 * and UTF-8 encoders would each treat their own way) becomes U+FFFD, so the output reads the same everywhere.
 */
export function escapeHtml(text: string): string {
  return text.replace(SPECIAL, (char) => ENTITIES[char] ?? '\uFFFD');
}

/** An attribute value: a name (not escaped: the renderer names them), and a value, or undefined to leave it out. */
export type Attribute = readonly [name: string, value: string | number | undefined];

/** ` name="value"` for each attribute given a value, every value quoted and escaped. */
export function attributes(list: readonly Attribute[]): string {
  let out = '';
  for (const [name, value] of list) if (value !== undefined) out += ` ${name}="${escapeHtml(String(value))}"`;
  return out;
}

/** An element with its attributes and inner HTML (already safe: built by the renderer). */
export function element(tag: string, list: readonly Attribute[], inner: string): string {
  return `<${tag}${attributes(list)}>${inner}</${tag}>`;
}
