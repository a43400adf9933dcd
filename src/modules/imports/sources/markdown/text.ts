import { createHash } from 'node:crypto';
import { slugFrom } from '../../../../shared/slug.js';

/*
 * Text as the store can keep it: Postgres refuses U+0000 in text and JSON, and a lone surrogate (which an escape
 * in JSON or YAML front matter can make) is no character at all; both are dropped.
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function storable(text: string): string {
  return text.replaceAll('\u0000', '').replace(LONE_SURROGATE, '');
}

/**
 * The source id of an author, category or tag: its name's slug, so the same name in two files is one item. A name
 * with no Latin letter or digit (`日本語`, `🎉`) slugs to nothing; a hash of it stands in, still one per name.
 */
export function nameId(kind: 'author' | 'category' | 'tag', name: string): string {
  const hash = createHash('sha256').update(name.normalize('NFC').toLowerCase()).digest('hex').slice(0, 10);
  return slugFrom(name, `${kind}-${hash}`);
}

/** A source shortened for a note, as the block converter's own notes are: white space collapsed, 120 characters. */
export function excerpt(source: string): string {
  const text = source.replace(/\s+/g, ' ').trim();
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}
