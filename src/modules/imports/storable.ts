/*
 * Text as both databases store it: PostgreSQL refuses U+0000 in text and JSON, and a lone UTF-16 surrogate (which a
 * `\ud800` escape in JSON or YAML can make) is no character of UTF-8. Both are dropped from whatever an import hands
 * on, by the readers and by the runner alike.
 */

export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function storable(text: string): string {
  return text.replaceAll('\u0000', '').replace(LONE_SURROGATE, '');
}

/** Every string inside `value` (a body, its notes, a request body) made storable; the shape is unchanged. */
export function storableDeep<T>(value: T): T {
  if (typeof value === 'string') return storable(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => storableDeep(item)) as T;
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, storableDeep(inner)])) as T;
  return value;
}
