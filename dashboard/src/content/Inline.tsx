import type { ReactNode } from 'react';

const MAX_DEPTH = 4;

/** Only links a reader can follow safely from the dashboard: absolute web and mail addresses. */
export function safeHref(url: string): string | null {
  try {
    const parsed = new URL(url.trim());
    return ['http:', 'https:', 'mailto:'].includes(parsed.protocol) ? parsed.href : null;
  } catch {
    return null;
  }
}

/**
 * A tiny, safe subset of inline Markdown: `code`, **strong**, *em* / _em_, [text](url). Everything becomes
 * React elements, never HTML, so stored text can never inject markup; anything else stays literal.
 */
export function InlineText({ text }: { text: string }) {
  return <>{parse(text, 0)}</>;
}

/**
 * The `)` that closes a link target opened just before `start`; a target may hold balanced parentheses, as in
 * Markdown.
 */
function closingParen(text: string, start: number): number {
  let open = 0;
  for (let i = start; i < text.length; i += 1) {
    if (text[i] === '(') open += 1;
    else if (text[i] === ')') {
      if (open === 0) return i;
      open -= 1;
    }
  }
  return -1;
}

function parse(text: string, depth: number): ReactNode[] {
  if (depth > MAX_DEPTH) return [text];
  const out: ReactNode[] = [];
  let plain = '';
  const flush = () => {
    if (plain) out.push(plain);
    plain = '';
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '\\' && i + 1 < text.length && /[\\`*_[\]()]/.test(text[i + 1]!)) {
      plain += text[i + 1];
      i += 2;
      continue;
    }
    if (ch === '`') {
      const end = text.indexOf('`', i + 1);
      if (end > i + 1) {
        flush();
        out.push(<code key={out.length}>{text.slice(i + 1, end)}</code>);
        i = end + 1;
        continue;
      }
    }
    if (text.startsWith('**', i) || text.startsWith('__', i)) {
      const marker = text.slice(i, i + 2);
      const end = text.indexOf(marker, i + 2);
      if (end > i + 2) {
        flush();
        out.push(<strong key={out.length}>{parse(text.slice(i + 2, end), depth + 1)}</strong>);
        i = end + 2;
        continue;
      }
    }
    // `_` inside a word (snake_case) is not emphasis.
    const opensEmphasis = (ch === '*' || (ch === '_' && !/\w/.test(text[i - 1] ?? ''))) && text[i + 1] !== ' ';
    if (opensEmphasis) {
      const end = text.indexOf(ch, i + 1);
      if (end > i + 1 && text[end - 1] !== ' ') {
        flush();
        out.push(<em key={out.length}>{parse(text.slice(i + 1, end), depth + 1)}</em>);
        i = end + 1;
        continue;
      }
    }
    if (ch === '[') {
      const close = text.indexOf('](', i + 1);
      const end = close > 0 ? closingParen(text, close + 2) : -1;
      if (close > 0 && end > 0) {
        const label = parse(text.slice(i + 1, close), depth + 1);
        const href = safeHref(text.slice(close + 2, end));
        flush();
        out.push(
          href ? (
            <a key={out.length} href={href} rel="noopener noreferrer nofollow" target="_blank">
              {label}
            </a>
          ) : (
            <span key={out.length}>{label}</span>
          ),
        );
        i = end + 1;
        continue;
      }
    }
    plain += ch;
    i += 1;
  }
  flush();
  return out;
}
