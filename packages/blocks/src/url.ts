/*
 * Which URLs become links and sources. An allow-list of what a URL may be, checked on the string as a browser
 * would read it: http:, https:, mailto:, a path or query of the site (`/x`, `x/y`, `?q`) or a fragment (`#x`).
 * Anything else (javascript:, data:, vbscript:, another scheme, a host without a scheme) is no link at all.
 */

/** A C0 control, DEL or a C1 control: a browser strips some of them (tab, newline) from inside a URL. */
function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code <= 0x1f || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}
const ALLOWED_SCHEMES = new Set(['http', 'https', 'mailto']);
/** What a URL may hold as it is; everything else is percent-encoded (UTF-8), an existing `%XX` kept. */
const UNRESERVED = /[A-Za-z0-9\-._~!$&'()*+,;=:@/?#[\]]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function percentEncode(url: string): string {
  const text = url.replace(LONE_SURROGATE, '\uFFFD');
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (UNRESERVED.test(char)) out += char;
    else if (char === '%' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) out += char;
    else {
      const code = text.codePointAt(i)!;
      const whole = String.fromCodePoint(code);
      out += encodeURIComponent(whole);
      i += whole.length - 1;
    }
  }
  return out;
}

/** Where links resolve, for `linkBase`: an absolute http(s) URL, or a TypeError naming the option. */
export function parseLinkBase(linkBase: string | undefined): URL | undefined {
  if (linkBase === undefined) return undefined;
  let base: URL;
  try {
    base = new URL(linkBase);
  } catch {
    throw new TypeError(`linkBase must be an absolute http or https URL, not ${JSON.stringify(linkBase)}`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:')
    throw new TypeError(`linkBase must be an absolute http or https URL, not ${JSON.stringify(linkBase)}`);
  return base;
}

/**
 * The URL as it may go into an `href` or `src`, or null when it may not. `base` resolves a site-relative URL into
 * an absolute one; a fragment stays as it is (it points into the page being read).
 */
export function safeUrl(raw: string, base?: URL): string | null {
  if (raw.trim() === '' || hasControl(raw)) return null;
  // A scheme is what comes before the first `:` that no `/`, `?` or `#` precedes. Whatever precedes it (`\`,
  // `%`, a space) makes a scheme no browser would run, and no path either: such a URL is refused too.
  const schemeEnd = raw.search(/[:/?#]/);
  if (schemeEnd >= 0 && raw[schemeEnd] === ':') {
    if (!ALLOWED_SCHEMES.has(raw.slice(0, schemeEnd).toLowerCase())) return null;
    const url = percentEncode(raw);
    // `http:x` or `https:/x` is read relative to the page by some parsers and as a host by others.
    if (/^https?:/i.test(url) && !/^https?:\/\/[^/\\?#]/i.test(url)) return null;
    return url;
  }
  // Two slashes (either way round) name another host without a scheme: not a path of this site.
  if (/^[/\\]{2}/.test(raw)) return null;
  const url = percentEncode(raw);
  if (url.startsWith('#') || base === undefined) return url;
  return new URL(url, base).href;
}
