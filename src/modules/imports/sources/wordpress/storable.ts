import { LONE_SURROGATE } from '../../storable.js';

/*
 * Text a database can hold and XML can carry. WordPress stores whatever a browser pasted, so exports hold control
 * characters XML 1.0 does not allow (a NUL, a vertical tab from Word) and, through JSON escapes in block
 * attributes, lone surrogates: dropped rather than failing a whole file or an item over one character.
 */

// eslint-disable-next-line no-control-regex -- the control characters are what it finds.
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** `text` without the characters XML 1.0 refuses and without lone surrogates; `dropped` counts them. */
export function storable(text: string): { text: string; dropped: number } {
  let dropped = 0;
  const count = () => {
    dropped += 1;
    return '';
  };
  const clean = text.replace(NOT_XML_CHAR, count).replace(LONE_SURROGATE, count);
  return { text: clean, dropped };
}

/** `text` as `storable` leaves it, when the count does not matter. */
export const storableText = (text: string): string => storable(text).text;
