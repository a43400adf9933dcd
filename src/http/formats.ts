import { Type } from 'typebox';
import { Fields } from './fields.js';

/**
 * `?formats=html`: a representation a post or page read adds to its answer (`bodyHtml`, the body rendered by
 * @quire/blocks). Without it an answer keeps its bytes. Naming `bodyHtml` in `?fields=` asks for it too.
 */
export const Formats = Type.Optional(
  Type.Literal('html', { description: 'Adds `bodyHtml`, the body rendered as HTML.' }),
);

/** The query of a single post or page read: `fields` and `formats`. */
export const ReadQuery = Type.Object({ fields: Fields, formats: Formats }, { additionalProperties: false });

/** Whether a read's query asks for the body as HTML. */
export function wantsHtml(query: { fields?: string | undefined; formats?: string | undefined }): boolean {
  return query.formats === 'html' || (query.fields?.split(',').includes('bodyHtml') ?? false);
}
