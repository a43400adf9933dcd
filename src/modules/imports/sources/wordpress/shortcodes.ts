/*
 * WordPress shortcodes (`[name attr="value"]`, `[name]content[/name]`, `[[name]]` for the text itself), read as
 * WordPress's get_shortcode_regex() reads them. WordPress expands only the shortcodes a site registered and shows
 * any other as text; an export does not say which those were, so a bracketed word is taken for a shortcode when
 * it is a known one, is closed (`[/name]`), has an attribute with `=`, or has `_` or `-` in its name: `[sic]`,
 * `[citation needed]` and `[1]` stay text.
 */

export interface Shortcode {
  name: string;
  /** Named attributes, lowercased names; positional ones under `0`, `1`…. */
  attrs: Record<string, string>;
  /** The enclosed content, or null for a self-closing one. */
  content: string | null;
  /** The shortcode as written, for a note. */
  source: string;
}

/** Shortcodes a site may have had that this reader knows by name (handled, or reported by name). */
const KNOWN = new Set([
  'caption',
  'wp_caption',
  'gallery',
  'embed',
  'youtube',
  'vimeo',
  'tweet',
  'audio',
  'video',
  'playlist',
]);

const OPEN = /\[([A-Za-z][\w-]*)(?![\w-])((?:[^\]/]|\/(?!\]))*)(\/)?\]/y;
const ATTR =
  /([\w-]+)\s*=\s*"([^"]*)"(?:\s|$)|([\w-]+)\s*=\s*'([^']*)'(?:\s|$)|([\w-]+)\s*=\s*([^\s'"]+)(?:\s|$)|"([^"]*)"(?:\s|$)|'([^']*)'(?:\s|$)|(\S+)(?:\s|$)/g;

/** WordPress's shortcode_parse_atts(): named attributes and positional values. */
export function parseAttributes(text: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  let position = 0;
  const normalised = text.replace(/[\u00a0\u200b]/g, ' ');
  for (const match of normalised.matchAll(ATTR)) {
    if (match[1] !== undefined) attrs[match[1].toLowerCase()] = match[2]!;
    else if (match[3] !== undefined) attrs[match[3].toLowerCase()] = match[4]!;
    else if (match[5] !== undefined) attrs[match[5].toLowerCase()] = match[6]!;
    else {
      attrs[String(position)] = match[7] ?? match[8] ?? match[9]!;
      position += 1;
    }
  }
  return attrs;
}

function isShortcode(name: string, attrs: string, closed: boolean): boolean {
  return KNOWN.has(name.toLowerCase()) || closed || attrs.includes('=') || /[_-]/.test(name);
}

/**
 * The text with each shortcode replaced by what `expand` makes of it (inner shortcodes of an enclosing one are the
 * expander's to handle, through `content`). Escaped shortcodes lose one pair of brackets, as WordPress shows them.
 */
export function replaceShortcodes(text: string, expand: (shortcode: Shortcode) => string): string {
  let out = '';
  let at = 0;
  let from = text.indexOf('[');
  while (from >= 0) {
    const escaped = text[from + 1] === '[';
    const found = shortcodeAt(text, escaped ? from + 1 : from);
    if (found === null || (escaped && text[found.end] !== ']')) {
      from = text.indexOf('[', from + 1);
      continue;
    }
    out += text.slice(at, from);
    if (escaped) {
      // `[[name]]`: the shortcode's own text, one bracket each side taken off.
      out += text.slice(from + 1, found.end);
      at = found.end + 1;
    } else {
      out += expand(found.shortcode);
      at = found.end;
    }
    from = text.indexOf('[', at);
  }
  return out + text.slice(at);
}

/** The shortcode opening at `from`, and where it ends (after its closing tag, when it has one). */
function shortcodeAt(text: string, from: number): { shortcode: Shortcode; end: number } | null {
  OPEN.lastIndex = from;
  const match = OPEN.exec(text);
  if (match === null) return null;
  const [whole, name, rawAttrs, selfClosing] = match as unknown as [string, string, string, string | undefined];
  const afterOpen = from + whole.length;
  const closeTag = `[/${name}]`;
  const closeAt = selfClosing === undefined ? text.indexOf(closeTag, afterOpen) : -1;
  if (!isShortcode(name, rawAttrs, closeAt >= 0)) return null;
  const end = closeAt >= 0 ? closeAt + closeTag.length : afterOpen;
  return {
    shortcode: {
      name: name.toLowerCase(),
      attrs: parseAttributes(rawAttrs),
      content: closeAt >= 0 ? text.slice(afterOpen, closeAt) : null,
      source: text.slice(from, end),
    },
    end,
  };
}
