import type { EditorBlock } from './model';

export type Mark = 'bold' | 'italic' | 'code' | 'link';

interface Edit {
  value: string;
  selectionStart: number;
  selectionEnd: number;
}

const WRAP: Record<Exclude<Mark, 'link'>, string> = { bold: '**', italic: '*', code: '`' };

/**
 * Writes the Markdown of a mark around the selection (the text stays Markdown, as the API stores it). A link
 * wraps the selection as its label and selects the address to type over.
 */
export function applyMark(value: string, start: number, end: number, mark: Mark): Edit {
  const selected = value.slice(start, end);
  if (mark === 'link') {
    const label = selected || 'link text';
    const url = 'https://';
    const inserted = `[${label}](${url})`;
    const urlStart = start + label.length + 3;
    return {
      value: value.slice(0, start) + inserted + value.slice(end),
      selectionStart: urlStart,
      selectionEnd: urlStart + url.length,
    };
  }
  const marker = WRAP[mark];
  // Pressing it again on wrapped text takes the mark off.
  if (
    value.slice(start - marker.length, start) === marker &&
    value.slice(end, end + marker.length) === marker &&
    (mark !== 'italic' || value.slice(start - 2, start) !== '**')
  ) {
    return {
      value: value.slice(0, start - marker.length) + selected + value.slice(end + marker.length),
      selectionStart: start - marker.length,
      selectionEnd: end - marker.length,
    };
  }
  return {
    value: value.slice(0, start) + marker + selected + marker + value.slice(end),
    selectionStart: start + marker.length,
    selectionEnd: end + marker.length,
  };
}

/** The mark a shortcut asks for: Ctrl or Cmd with B, I, K, or E (code). */
export function shortcutMark(event: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean }): Mark | null {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return null;
  switch (event.key.toLowerCase()) {
    case 'b':
      return 'bold';
    case 'i':
      return 'italic';
    case 'k':
      return 'link';
    case 'e':
      return 'code';
    default:
      return null;
  }
}

const BULLET = /^\s*[-*+]\s+(.*)$/;
const ORDERED = /^\s*\d+[.)]\s+(.*)$/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const QUOTE = /^>\s?(.*)$/;

/** Whether pasted text is more than one paragraph of the block it lands in. */
export function isStructured(text: string): boolean {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  return /\n\s*\n/.test(text) || lines.some((line) => HEADING.test(line) || BULLET.test(line) || ORDERED.test(line));
}

/**
 * Plain text or Markdown split into blocks: blank lines part paragraphs; `#` lines are headings (levels 2–4,
 * the ones a body has); runs of `-`/`*` or `1.` lines are lists; `>` lines a quote. Inline Markdown stays.
 */
export function splitPaste(text: string): EditorBlock[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const blocks: EditorBlock[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    const joined = paragraph.join('\n').trim();
    if (joined) blocks.push({ type: 'paragraph', text: joined });
    paragraph = [];
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      const level = Math.min(4, Math.max(2, heading[1]!.length)) as 2 | 3 | 4;
      blocks.push({ type: 'heading', level, text: heading[2]! } as EditorBlock);
      i += 1;
      continue;
    }
    const listStyle = BULLET.test(line) ? 'bullet' : ORDERED.test(line) ? 'ordered' : null;
    if (listStyle) {
      flush();
      const pattern = listStyle === 'bullet' ? BULLET : ORDERED;
      const items: string[] = [];
      while (i < lines.length && pattern.test(lines[i]!)) items.push(pattern.exec(lines[i++]!)![1]!);
      blocks.push({ type: 'list', style: listStyle, items });
      continue;
    }
    if (QUOTE.test(line)) {
      flush();
      const quoted: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i]!)) quoted.push(QUOTE.exec(lines[i++]!)![1]!);
      blocks.push({ type: 'quote', text: quoted.join('\n').trim() });
      continue;
    }
    if (line.trim() === '') flush();
    else paragraph.push(line);
    i += 1;
  }
  flush();
  return blocks;
}
