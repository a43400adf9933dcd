import { htmlToBlocks, type ConversionResult, type ConvertOptions } from '@quire/blocks';
import { mobiledocToLexical } from '@tryghost/kg-converters';
import type { ImportBody } from '../../import-source.js';
import { lexicalSegments } from './ghost-lexical.js';
import { convertSegments, type Segment } from './ghost-segments.js';
import { storableDeep } from './ghost-text.js';
import { isNode } from './lexical-node.js';

/*
 * A post's body from the best of what Ghost stored: its Lexical document (Ghost 5 and later), else its Mobiledoc
 * (older posts, turned into Lexical by Ghost's own converter so one walker reads both), else its HTML.
 */

/** A body larger than this is refused: no post an editor wrote is, and converting one would hold it all. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

export type BodyOrError = { body: ImportBody } | { error: string };

const BODY_COLUMNS = ['lexical', 'mobiledoc', 'html'] as const;

function lexicalBody(lexical: string, fingerprint: string): BodyOrError {
  let document: unknown;
  try {
    document = JSON.parse(lexical);
  } catch (error) {
    return { error: `its Lexical body is not JSON: ${(error as Error).message}` };
  }
  const root = isNode(document) ? document.root : undefined;
  if (!isNode(root)) return { error: 'its Lexical body has no root node' };
  let segments: Segment[] | undefined;
  return {
    body: {
      fingerprint,
      convert(options: ConvertOptions): ConversionResult {
        segments ??= lexicalSegments(root);
        return convertSegments(segments, options);
      },
    },
  };
}

/** The body of a `posts` row, or why it cannot be read. */
export function ghostBody(post: Record<string, unknown>): BodyOrError {
  for (const column of BODY_COLUMNS) {
    const value = post[column];
    if (typeof value === 'string' && Buffer.byteLength(value) > MAX_BODY_BYTES)
      return { error: `its ${column} is over ${MAX_BODY_BYTES / 1024 / 1024} MB` };
  }
  const lexical = typeof post.lexical === 'string' ? post.lexical : '';
  if (lexical.trim() !== '') return lexicalBody(lexical, lexical);
  const mobiledoc = typeof post.mobiledoc === 'string' ? post.mobiledoc : '';
  if (mobiledoc.trim() !== '') {
    let converted: string;
    try {
      converted = mobiledocToLexical(mobiledoc);
    } catch (error) {
      return { error: `its Mobiledoc body cannot be read: ${(error as Error).message}` };
    }
    return lexicalBody(converted, mobiledoc);
  }
  const html = typeof post.html === 'string' ? post.html : '';
  return {
    body: {
      fingerprint: html,
      convert: (options: ConvertOptions) => storableDeep(htmlToBlocks(html, options)),
    },
  };
}
