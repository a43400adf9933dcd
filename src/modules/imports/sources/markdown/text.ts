import { createHash } from 'node:crypto';
import { slugFrom } from '../../../../shared/slug.js';

export { storable } from '../../storable.js';
export { excerptOf as excerpt } from '@quire/blocks';

/**
 * The source id of an author, category or tag: its name's slug, so the same name in two files is one item. A name
 * with no Latin letter or digit (`日本語`, `🎉`) slugs to nothing; a hash of it stands in, still one per name.
 */
export function nameId(kind: 'author' | 'category' | 'tag', name: string): string {
  const hash = createHash('sha256').update(name.normalize('NFC').toLowerCase()).digest('hex').slice(0, 10);
  return slugFrom(name, `${kind}-${hash}`);
}
