import { useState, type KeyboardEvent } from 'react';
import { isStructured, splitPaste } from './markdown';
import { blankBlock, BLOCK_LABELS, BLOCK_TYPES, LIMITS, type BlockType, type EditorBlock } from './model';
import { MarkdownField } from './TextFields';

/** A paragraph: Markdown, a "/" menu while it holds only "/…", and a paste that splits into blocks. */
export function ParagraphField({
  text,
  error,
  onChange,
  onReplace,
}: {
  text: string;
  error: string | undefined;
  onChange(text: string): void;
  onReplace(blocks: EditorBlock[]): void;
}) {
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState(false);
  const slash = /^\/(\w*)$/.exec(text);
  const query = slash?.[1]?.toLowerCase() ?? '';
  const matches =
    slash && !dismissed
      ? BLOCK_TYPES.filter((t) => BLOCK_LABELS[t].toLowerCase().startsWith(query) || t.startsWith(query))
      : [];
  const choose = (type: BlockType) => onReplace([blankBlock(type)]);
  const keyDown = (event: KeyboardEvent<HTMLTextAreaElement | HTMLInputElement>) => {
    if (matches.length === 0) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((a) => (a + (event.key === 'ArrowDown' ? 1 : matches.length - 1)) % matches.length);
    } else if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      choose(matches[Math.min(active, matches.length - 1)]!);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      setDismissed(true);
    }
  };
  return (
    <MarkdownField
      label="Paragraph"
      value={text}
      error={error}
      maxLength={LIMITS.paragraph}
      hint={text === '' ? 'Type / for other kinds of block.' : undefined}
      onChange={(value) => {
        setActive(0);
        setDismissed(false);
        onChange(value);
      }}
      onKeyDown={keyDown}
      onPasteText={(pasted) => {
        if (!isStructured(pasted)) return false;
        const blocks = splitPaste(pasted);
        if (blocks.length === 0) return false;
        onReplace(text.trim() === '' ? blocks : [{ type: 'paragraph', text }, ...blocks]);
        return true;
      }}
      after={
        matches.length > 0 && (
          <div className="slash-menu" role="group" aria-label="Turn this paragraph into">
            <p className="hint" aria-live="polite">
              {BLOCK_LABELS[matches[Math.min(active, matches.length - 1)]!]}: press Enter. Arrow keys choose another.
            </p>
            <ul>
              {matches.map((type, i) => (
                <li key={type}>
                  <button
                    type="button"
                    className={i === active ? 'slash-active' : undefined}
                    onMouseDown={(event) => event.preventDefault()}
                    onClick={() => choose(type)}
                  >
                    {BLOCK_LABELS[type]}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        )
      }
    />
  );
}
