import { useMemo } from 'react';
import { alignBlocks, blockText, fieldChanges, foldUnchanged } from './body-diff';
import { canonical } from './merge';
import { BLOCK_LABELS, type EditorBlock } from './model';
import { fieldsFor, type EditableFields, type StudioField } from './post-fields';
import { WordDiff } from './WordDiff';

type Kind = 'post' | 'page';

/** The fields shown word by word; the others (images, people, SEO) are only named when they differ. */
const TEXT_KINDS: ReadonlyArray<StudioField['kind']> = ['text', 'slug', 'markdown'];

const valueOf = (fields: EditableFields, field: StudioField) =>
  (fields as unknown as Record<string, unknown>)[field.name];

/** An empty value is empty whichever way it is stored: null, "", [] and {} alike. */
function sameValue(a: unknown, b: unknown): boolean {
  const empty = (v: unknown) =>
    v === null ||
    v === undefined ||
    v === '' ||
    (Array.isArray(v) && v.length === 0) ||
    (typeof v === 'object' && Object.keys(v as object).length === 0);
  return (empty(a) && empty(b)) || canonical(a) === canonical(b);
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** One block's change: its type, what happened to it, and its fields word by word. */
export function BlockChange({ before, after }: { before?: EditorBlock; after?: EditorBlock }) {
  const block = (after ?? before)!;
  const what = !before ? 'added' : !after ? 'deleted' : 'edited';
  const retyped = before && after && before.type !== after.type ? ` (was ${BLOCK_LABELS[before.type]})` : '';
  const fields = fieldChanges(before, after);
  const bare = fields.length === 1 && ['Text', 'Items'].includes(fields[0]!.label);
  return (
    <>
      <p className="change-label">
        {BLOCK_LABELS[block.type]}
        {retyped}, {what}
      </p>
      {fields.map((field) => (
        <p key={field.label} className={field.label === 'Code' ? 'change-text change-code' : 'change-text'}>
          {!bare && <span className="change-field">{field.label}: </span>}
          <WordDiff before={field.before} after={field.after} />
        </p>
      ))}
    </>
  );
}

/**
 * What differs between two copies of a post or page, in one column: the title, slug and excerpt word by word,
 * the other fields named, then the body block by block with each run of unchanged blocks folded.
 */
export function Changes({ kind, before, after }: { kind: Kind; before: EditableFields; after: EditableFields }) {
  const fields = fieldsFor(kind);
  const texts = fields.filter(
    (field) => TEXT_KINDS.includes(field.kind) && !sameValue(valueOf(before, field), valueOf(after, field)),
  );
  const others = fields.filter(
    (field) =>
      !TEXT_KINDS.includes(field.kind) &&
      field.kind !== 'blocks' &&
      !sameValue(valueOf(before, field), valueOf(after, field)),
  );
  const rows = useMemo(
    () => foldUnchanged(alignBlocks(before.bodyJson, after.bodyJson)),
    [before.bodyJson, after.bodyJson],
  );
  const bodyChanged = rows.some((row) => row.kind !== 'unchanged');
  return (
    <div className="changes">
      {texts.map((field) => (
        <div key={field.name} className="change">
          <p className="change-label">{field.label}</p>
          <p className="change-text">
            <WordDiff before={String(valueOf(before, field) ?? '')} after={String(valueOf(after, field) ?? '')} />
          </p>
        </div>
      ))}
      {others.length > 0 && <p className="change">Also different: {others.map((field) => field.label).join(', ')}.</p>}
      {bodyChanged ? (
        <div className="change">
          <p className="change-label">Body</p>
          <ol className="body-changes" aria-label="Body, block by block">
            {rows.map((row, i) =>
              row.kind === 'unchanged' ? (
                <li key={i} className="change-unchanged">
                  <details>
                    <summary>{plural(row.rows.length, 'unchanged block', 'unchanged blocks')}</summary>
                    {row.rows.map((same) => (
                      <p key={same.afterIndex} className="change-text">
                        {blockText(same.after!) || BLOCK_LABELS[same.after!.type]}
                      </p>
                    ))}
                  </details>
                </li>
              ) : (
                <li key={i} className={`change-block change-${row.kind}`}>
                  <BlockChange before={row.before} after={row.after} />
                </li>
              ),
            )}
          </ol>
        </div>
      ) : (
        <p className="change">
          {texts.length + others.length === 0 ? 'No differences: both hold the same.' : 'The body is the same.'}
        </p>
      )}
    </div>
  );
}
