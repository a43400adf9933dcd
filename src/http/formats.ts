import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { wantsGzip } from './encodings.js';
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

type HtmlQuery = { fields?: string | undefined; formats?: string | undefined };

/** Whether a read's query asks for the body as HTML. */
export function wantsHtml(query: HtmlQuery): boolean {
  return query.formats === 'html' || (query.fields?.split(',').includes('bodyHtml') ?? false);
}

/**
 * What a read of posts is asked to carry: `bodyHtml` when its query asks for it, and the stored deflated forms
 * when the answer goes out in gzip as the read's bytes (http/encodings.ts wantsGzip).
 */
export function postReadForms(request: FastifyRequest, query: HtmlQuery): { html: boolean; deflated: boolean } {
  return { html: wantsHtml(query), deflated: wantsGzip(request) };
}
