import { useState, type KeyboardEvent, type ReactNode } from 'react';
import { MediaPicker } from '../media/MediaPicker';
import { blankBlock, BLOCK_LABELS, BLOCK_TYPES, LIMITS, type BlockType, type EditorBlock } from './model';
import { isStructured, splitPaste } from './markdown';
import { Choice, MarkdownField, PlainField } from './TextFields';

export interface FieldsProps {
  block: EditorBlock;
  /** Errors of this block by the rest of their JSON Pointer ("text", "items/2/answer"). */
  errors: Record<string, string> | undefined;
  workspaceId: string;
  onChange(block: EditorBlock): void;
  /** Replaces this block by others: a paste split into blocks, or a type chosen from the "/" menu. */
  onReplace(blocks: EditorBlock[]): void;
}

/** Optional text fields are left out rather than stored empty, so a cleared caption reads as no caption. */
function optional<T extends object, K extends string>(block: T, key: K, value: string): T {
  const next = { ...block } as Record<string, unknown>;
  if (value === '') delete next[key];
  else next[key] = value;
  return next as T;
}

const CALLOUTS = ['info', 'warning', 'success', 'error'].map((v) => ({
  value: v,
  label: v[0]!.toUpperCase() + v.slice(1),
}));
const LEVELS = [2, 3, 4].map((level) => ({ value: level, label: `Level ${level}` }));

export function BlockFields({ block, errors = {}, workspaceId, onChange, onReplace }: FieldsProps) {
  const set = (changes: Record<string, unknown>) => onChange({ ...block, ...changes } as EditorBlock);
  switch (block.type) {
    case 'paragraph':
      return (
        <ParagraphField
          text={block.text}
          error={errors.text}
          onChange={(text) => set({ text })}
          onReplace={onReplace}
        />
      );
    case 'heading':
      return (
        <div className="field-row">
          <Choice label="Level" value={block.level} options={LEVELS} onChange={(level) => set({ level })} />
          <MarkdownField
            label="Heading text"
            multiline={false}
            value={block.text}
            error={errors.text}
            onChange={(text) => set({ text })}
          />
        </div>
      );
    case 'list':
      return (
        <>
          <Choice
            label="List style"
            value={block.style}
            options={[
              { value: 'bullet', label: 'Bullets' },
              { value: 'ordered', label: 'Numbered' },
            ]}
            onChange={(style) => set({ style })}
          />
          <MarkdownField
            label="Items, one per line"
            value={block.items.join('\n')}
            error={errors.items ?? Object.entries(errors).find(([k]) => k.startsWith('items/'))?.[1]}
            onChange={(text) => set({ items: text.split('\n') })}
          />
        </>
      );
    case 'image':
      return <ImageFields block={block} errors={errors} workspaceId={workspaceId} onChange={onChange} />;
    case 'code':
      return (
        <>
          <PlainField
            label="Language"
            mono
            value={block.language}
            error={errors.language}
            hint="Such as ts, python or html."
            onChange={(language) => set({ language })}
          />
          <PlainField
            label="Code"
            mono
            multiline
            value={block.code}
            error={errors.code}
            onChange={(code) => set({ code })}
          />
        </>
      );
    case 'quote':
      return (
        <>
          <MarkdownField label="Quote" value={block.text} error={errors.text} onChange={(text) => set({ text })} />
          <MarkdownField
            label="Attribution (optional)"
            multiline={false}
            value={block.attribution ?? ''}
            error={errors.attribution}
            onChange={(value) => onChange(optional(block, 'attribution', value))}
          />
        </>
      );
    case 'divider':
      return <p className="hint">A line between sections. It has nothing to fill in.</p>;
    case 'callout':
      return (
        <>
          <Choice label="Kind" value={block.variant} options={CALLOUTS} onChange={(variant) => set({ variant })} />
          <MarkdownField
            label="Title (optional)"
            multiline={false}
            value={block.title ?? ''}
            error={errors.title}
            onChange={(value) => onChange(optional(block, 'title', value))}
          />
          <MarkdownField
            label="Callout text"
            value={block.body}
            error={errors.body}
            onChange={(body) => set({ body })}
          />
        </>
      );
    case 'video_embed':
      return (
        <>
          <PlainField
            label="Video address"
            type="url"
            value={block.url}
            error={errors.url}
            hint="A link to the video, such as https://www.youtube.com/watch?v=…"
            onChange={(url) => set({ url })}
          />
          <PlainField
            label="Video title (optional)"
            value={block.title ?? ''}
            error={errors.title}
            onChange={(value) => onChange(optional(block, 'title', value))}
          />
        </>
      );
    case 'tweet_embed':
      return (
        <PlainField
          label="Post address"
          type="url"
          value={block.url}
          error={errors.url}
          hint="A link to the social media post."
          onChange={(url) => set({ url })}
        />
      );
    case 'faq':
      return (
        <ItemList
          noun="question"
          count={block.items.length}
          min={LIMITS.faq.min}
          max={LIMITS.faq.max}
          error={errors.items}
          onAdd={() => set({ items: [...block.items, { question: '', answer: '' }] })}
          onRemove={(i) => set({ items: block.items.filter((_, j) => j !== i) })}
          render={(i) => (
            <>
              <PlainField
                label={`Question ${i + 1}`}
                value={block.items[i]!.question}
                error={errors[`items/${i}/question`]}
                onChange={(question) =>
                  set({ items: block.items.map((it, j) => (j === i ? { ...it, question } : it)) })
                }
              />
              <PlainField
                label={`Answer ${i + 1}`}
                multiline
                value={block.items[i]!.answer}
                error={errors[`items/${i}/answer`]}
                onChange={(answer) => set({ items: block.items.map((it, j) => (j === i ? { ...it, answer } : it)) })}
              />
            </>
          )}
        />
      );
    case 'cta':
      return (
        <>
          <Choice
            label="Style"
            value={block.variant}
            options={[
              { value: 'default', label: 'Filled' },
              { value: 'outlined', label: 'Outlined' },
            ]}
            onChange={(variant) => set({ variant })}
          />
          <PlainField
            label="Call to action title"
            value={block.title}
            error={errors.title}
            onChange={(title) => set({ title })}
          />
          <PlainField
            label="Call to action text"
            multiline
            value={block.body}
            error={errors.body}
            onChange={(body) => set({ body })}
          />
          <div className="field-row">
            <PlainField
              label="Button label"
              value={block.linkLabel}
              error={errors.linkLabel}
              onChange={(linkLabel) => set({ linkLabel })}
            />
            <PlainField
              label="Button link"
              type="url"
              value={block.linkUrl}
              error={errors.linkUrl}
              onChange={(linkUrl) => set({ linkUrl })}
            />
          </div>
        </>
      );
    case 'key_takeaways':
      return (
        <ItemList
          noun="takeaway"
          count={block.items.length}
          min={LIMITS.takeaways.min}
          max={LIMITS.takeaways.max}
          error={errors.items}
          onAdd={() => set({ items: [...block.items, ''] })}
          onRemove={(i) => set({ items: block.items.filter((_, j) => j !== i) })}
          render={(i) => (
            <MarkdownField
              label={`Takeaway ${i + 1}`}
              multiline={false}
              value={block.items[i]!}
              error={errors[`items/${i}`]}
              onChange={(text) => set({ items: block.items.map((it, j) => (j === i ? text : it)) })}
            />
          )}
        />
      );
  }
}

/** Items with add and remove buttons held to the block's limits, which the buttons say. */
function ItemList({
  noun,
  count,
  min,
  max,
  error,
  onAdd,
  onRemove,
  render,
}: {
  noun: string;
  count: number;
  min: number;
  max: number;
  error: string | undefined;
  onAdd(): void;
  onRemove(index: number): void;
  render(index: number): ReactNode;
}) {
  return (
    <div className="item-list">
      {Array.from({ length: count }, (_, i) => (
        <div className="item" key={i}>
          {render(i)}
          <button type="button" className="button-quiet" disabled={count <= min} onClick={() => onRemove(i)}>
            Remove {noun} {i + 1}
          </button>
        </div>
      ))}
      {error && <p className="field-error">{error}</p>}
      <p className="item-list-add">
        <button type="button" disabled={count >= max} onClick={onAdd}>
          Add a {noun}
        </button>{' '}
        <span className="hint">
          {count} of {min}–{max}
        </span>
      </p>
    </div>
  );
}

function ImageFields({
  block,
  errors,
  workspaceId,
  onChange,
}: {
  block: Extract<EditorBlock, { type: 'image' }>;
  errors: Record<string, string>;
  workspaceId: string;
  onChange(block: EditorBlock): void;
}) {
  const [picking, setPicking] = useState(false);
  return (
    <>
      <div className="image-pick">
        {block.mediaId && block.url ? (
          <img src={block.url} alt="" className="image-pick-preview" />
        ) : block.mediaId ? (
          <p className="hint">The image's file was deleted; choose another.</p>
        ) : null}
        <button type="button" onClick={() => setPicking(true)}>
          {block.mediaId ? 'Change image' : 'Choose image'}
        </button>
        {errors.mediaId && <p className="field-error">{errors.mediaId}</p>}
      </div>
      <PlainField
        label="Alt text"
        value={block.alt ?? ''}
        error={errors.alt}
        hint="What the image shows, for people who cannot see it."
        onChange={(value) => onChange(optional(block, 'alt', value))}
      />
      <PlainField
        label="Caption (optional)"
        value={block.caption ?? ''}
        error={errors.caption}
        onChange={(value) => onChange(optional(block, 'caption', value))}
      />
      <MediaPicker
        workspaceId={workspaceId}
        open={picking}
        onClose={() => setPicking(false)}
        onPick={(media) => {
          setPicking(false);
          const next = { ...block, mediaId: media.id, url: media.url };
          if (!block.alt && media.alt) next.alt = media.alt;
          onChange(next);
        }}
      />
    </>
  );
}

/** A paragraph: Markdown, a "/" menu while it holds only "/…", and a paste that splits into blocks. */
function ParagraphField({
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
