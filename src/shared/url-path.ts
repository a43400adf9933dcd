/**
 * The one canonical form of a site path, shared by redirects and link-health reports so that equal
 * paths compare equal as plain strings (and so a unique index can enforce "one redirect per path").
 *
 * - a leading `/` is added; runs of `/` collapse to one, so `//evil.example` can never become a
 *   protocol-relative URL; a trailing `/` is removed except for the root `/`;
 * - percent-encoding is normalised as RFC 3986 §6.2.2 allows: escapes of unreserved characters are
 *   decoded (`%7E` → `~`), other escapes get uppercase hex, and anything a path may not hold raw
 *   (spaces, non-ASCII, `\`, quotes, angle brackets) is encoded as UTF-8 (`/café` → `/caf%C3%A9`);
 * - case is kept: paths are case-sensitive, and `/About` may be another page than `/about`;
 * - control characters, broken escapes and `.`/`..` segments are refused: a browser never sends
 *   them, and control characters in a `Location` header are how response splitting starts.
 */

export const PATH_MAX_LENGTH = 2000;

export type PathResult = { ok: true; value: string } | { ok: false; message: string };

/** What to do with a `?query` or `#fragment` after the path. */
export type SuffixMode = 'refuse' | 'strip' | 'keep';

const UNRESERVED = /[A-Za-z0-9\-._~]/;
/** pchar of RFC 3986 minus `%` (handled apart), plus `/`; a query or fragment may also hold `?`. */
const PATH_RAW = /[A-Za-z0-9\-._~!$&'()*+,;=:@/]/;
const SUFFIX_RAW = /[A-Za-z0-9\-._~!$&'()*+,;=:@/?]/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
/** In a `u` regex a surrogate pair is one code point, so only an unpaired half matches. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

const fail = (message: string): PathResult => ({ ok: false, message });

function hex(byte: number): string {
  return `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
}

/** Normalises percent-encoding of `text`, letting through raw only what `raw` allows. */
function normaliseEscapes(text: string, raw: RegExp): PathResult {
  let out = '';
  for (let i = 0; i < text.length;) {
    const char = String.fromCodePoint(text.codePointAt(i)!);
    if (char === '%') {
      const digits = text.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(digits)) return fail('has a "%" that does not start a %XX escape');
      const decoded = String.fromCharCode(parseInt(digits, 16));
      out += UNRESERVED.test(decoded) ? decoded : hex(parseInt(digits, 16));
      i += 3;
      continue;
    }
    out += raw.test(char) ? char : [...Buffer.from(char, 'utf8')].map(hex).join('');
    i += char.length;
  }
  return { ok: true, value: out };
}

function normalisePathPart(part: string): PathResult {
  const escaped = normaliseEscapes(part, PATH_RAW);
  if (!escaped.ok) return escaped;
  const segments = escaped.value.split('/').filter((segment) => segment !== '');
  if (segments.some((segment) => segment === '.' || segment === '..'))
    return fail('must not contain "." or ".." segments');
  return { ok: true, value: `/${segments.join('/')}` };
}

function checkText(input: string): PathResult | null {
  if (input.length === 0) return fail('must not be empty');
  if (CONTROL.test(input)) return fail('must not contain control characters');
  if (LONE_SURROGATE.test(input)) return fail('is not well-formed Unicode');
  return null;
}

/** A site path in canonical form; `suffix` says what happens to a query string or fragment. */
export function normalizePath(input: string, suffix: SuffixMode): PathResult {
  const bad = checkText(input);
  if (bad) return bad;
  if (!input.startsWith('/') && SCHEME.test(input)) return fail('must be a path such as /old-page, not a URL');
  const cut = input.search(/[?#]/);
  const pathPart = cut === -1 ? input : input.slice(0, cut);
  if (cut !== -1 && suffix === 'refuse') return fail('must be a path without a query string or fragment');
  const path = normalisePathPart(pathPart);
  if (!path.ok) return path;
  let value = path.value;
  if (cut !== -1 && suffix === 'keep') {
    const hash = input.indexOf('#', cut);
    const query = input[cut] === '?' ? input.slice(cut + 1, hash === -1 ? undefined : hash) : null;
    const fragment = hash === -1 ? null : input.slice(hash + 1);
    for (const [mark, text] of [
      ['?', query],
      ['#', fragment],
    ] as const) {
      if (text === null) continue;
      const part = normaliseEscapes(text, SUFFIX_RAW);
      if (!part.ok) return part;
      value += mark + part.value;
    }
  }
  if (value.length > PATH_MAX_LENGTH) return fail(`is longer than ${PATH_MAX_LENGTH} characters once normalised`);
  return { ok: true, value };
}

/** The path part of a normalised local target (what a later redirect would match), or null for a URL. */
export function pathOfTarget(target: string): string | null {
  if (!target.startsWith('/')) return null;
  const cut = target.search(/[?#]/);
  return cut === -1 ? target : target.slice(0, cut);
}

/**
 * A redirect target: a site path (its query string and fragment kept) or an absolute http(s) URL of
 * another site. Other schemes (`javascript:`, `data:`) and URLs carrying credentials
 * (`https://trusted.example@evil.example`) are refused: both are classic open-redirect tricks.
 */
export function normalizeTarget(input: string): PathResult {
  const bad = checkText(input);
  if (bad) return bad;
  if (input.startsWith('/') || !SCHEME.test(input)) return normalizePath(input, 'keep');
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return fail('is neither a path nor a valid absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return fail('must be a path or an http(s) URL');
  if (url.username !== '' || url.password !== '') return fail('must not carry a user name or password');
  if (url.href.length > PATH_MAX_LENGTH) return fail(`is longer than ${PATH_MAX_LENGTH} characters once normalised`);
  return { ok: true, value: url.href };
}

/** A referrer as reported by a site: an absolute http(s) URL or a path, kept as sent once checked. */
export function checkReferrer(input: string): PathResult {
  const bad = checkText(input);
  if (bad) return bad;
  const isPath = input.startsWith('/');
  if (!isPath && (!SCHEME.test(input) || !normalizeTarget(input).ok))
    return fail('must be an absolute http(s) URL or a path starting with /');
  return { ok: true, value: input };
}
