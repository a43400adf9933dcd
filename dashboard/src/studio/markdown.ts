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
