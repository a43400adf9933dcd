import { useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { Dialog } from '../components/Dialog';
import { formatTime } from '../hooks';
import { blockText } from './body-diff';
import { BlockChange, Changes } from './Changes';
import { merge, resolve, unresolved, type Choice, type Conflict } from './merge';
import { BLOCK_LABELS } from './model';
import { STUDIO_FIELDS, type EditableFields } from './post-fields';
import type { Theirs } from './theirs';
import { WordDiff } from './WordDiff';

type Kind = 'post' | 'page';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** A field's value as text to compare word by word: SEO settings one per line, lists by commas. */
function describe(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(describe).join(', ');
  if (typeof value === 'object')
    return Object.entries(value as Record<string, unknown>)
      .map(([key, v]) => `${key}: ${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`)
      .join('\n');
  return String(value);
}

/** The first words of a block, enough to find it: at most eight, and 60 characters. */
function snippet(text: string): string {
  const words = text.split(/\s+/).filter(Boolean);
  const start = words.slice(0, 8).join(' ');
  const cut = start.length > 60 ? start.slice(0, 60).trimEnd() : start;
  return cut.length < words.join(' ').length ? `${cut}…` : cut;
}

/** What names a conflict to the writer: the field's label, or the block's place, type and first words. */
function legendOf(conflict: Conflict): string {
  if (conflict.kind === 'field') return STUDIO_FIELDS.find((field) => field.name === conflict.name)!.label;
  if (conflict.added) return conflict.at === 0 ? 'New blocks at the start' : `New blocks after block ${conflict.at}`;
  const block = conflict.base[0]!;
  const words = snippet(blockText(block));
  return `Block ${conflict.at + 1}: ${BLOCK_LABELS[block.type]}${words ? ` “${words}”` : ''}`;
}

/** One side's version in a conflict, as its change from the copy both started from. */
function SideOf({ conflict, side }: { conflict: Conflict; side: 'mine' | 'theirs' }): ReactNode {
  if (conflict.kind === 'field')
    return (
      <p className="change-text">
        <WordDiff before={describe(conflict.base)} after={describe(conflict[side])} />
      </p>
    );
  const blocks = conflict[side];
  if (blocks.length === 0) return <p className="change-text">Deleted.</p>;
  return blocks.map((block, i) => (
    <div key={i} className="change-block">
      <BlockChange before={conflict.added ? undefined : conflict.base[0]} after={block} />
    </div>
  ));
}

const OPTION_LABELS: Record<Choice, string> = { mine: 'Mine', theirs: 'Theirs', both: 'Both, mine first' };

/** The panel's title and what it says happened, by what moved on the server. */
function wordsOf(kind: Kind, theirs: Theirs, who: string): { title: string; what: string } {
  const at = formatTime(theirs.version);
  switch (theirs.reason) {
    case 'live':
      return {
        title: `A newer copy of this ${kind} was saved`,
        what: `It was saved ${at}, after the copy your edits started from.`,
      };
    case 'set':
      return {
        title: `Someone else saved changes to this ${kind}`,
        what: `${who} saved changes that are not live yet (${at}), after the copy your edits started from. Theirs is the live ${kind} with those changes.`,
      };
    case 'gone':
      return {
        title: `The unpublished changes were updated or discarded elsewhere`,
        what: `Someone applied them to the live ${kind} with Update, or discarded them, after the copy your edits started from. Theirs is the live ${kind} now.`,
      };
  }
}

/**
 * After a save refused as out of date: what their copy changed, and three ways on. Keep mine (all of it), take
 * theirs (all of it), or merge: every change only one side made is taken, and each place both changed asks for
 * a choice. `theirs.base` is the copy the writer's edits started from, `mine` the editor's, `theirs.fields` the
 * server's (`who` names who saved it, when another writer's pending changes are in it).
 */
export function ConflictPanel({
  kind,
  mine,
  theirs,
  who = 'Another writer',
  onResolve,
  onCancel,
}: {
  kind: Kind;
  mine: EditableFields;
  theirs: Theirs;
  who?: string;
  onResolve(merged: EditableFields, version: string): void;
  onCancel(): void;
}) {
  const id = useId();
  const { base, fields: theirFields } = theirs;
  const merged = useMemo(() => merge(base, mine, theirFields), [base, mine, theirFields]);
  const words = wordsOf(kind, theirs, who);
  const [choices, setChoices] = useState<Record<string, Choice>>({});
  const [missing, setMissing] = useState(0);
  const choicesRef = useRef<HTMLDivElement>(null);
  const version = theirs.version;
  const conflicts = merged.conflicts;

  const saveMerged = () => {
    const open = unresolved(merged, choices);
    setMissing(open.length);
    if (open.length === 0) return onResolve(resolve(merged, choices), version);
    const first = choicesRef.current?.querySelector<HTMLInputElement>(`fieldset[data-conflict="${open[0]!.id}"] input`);
    first?.focus();
  };

  const { mine: ours, theirs: their } = merged.taken;
  return (
    <Dialog
      title={words.title}
      onClose={onCancel}
      description={<p className="hint">{words.what} Nothing is lost yet: choose what to keep.</p>}
    >
      <section aria-labelledby={`${id}-theirs`}>
        <h3 id={`${id}-theirs`}>What they changed</h3>
        <Changes kind={kind} before={base} after={theirFields} />
      </section>

      <section aria-labelledby={`${id}-merge`} className="conflict-merge">
        <h3 id={`${id}-merge`}>Merge both</h3>
        <p>
          {plural(their, 'change', 'changes')} of theirs and {plural(ours, 'change', 'changes')} of yours merge without
          overlapping.
          {conflicts.length > 0 &&
            ` ${plural(conflicts.length, 'place was', 'places were')} changed on both sides: choose a version for each.`}
        </p>
        <div ref={choicesRef}>
          {conflicts.map((conflict) => {
            const options: Choice[] =
              conflict.kind === 'blocks' && conflict.added ? ['mine', 'theirs', 'both'] : ['mine', 'theirs'];
            return (
              <fieldset key={conflict.id} className="conflict-choice" data-conflict={conflict.id}>
                <legend>{legendOf(conflict)}</legend>
                {options.map((option) => {
                  const described = `${id}-${conflict.id}-${option}`;
                  return (
                    <div key={option} className="conflict-option">
                      <label>
                        <input
                          type="radio"
                          name={`${id}-${conflict.id}`}
                          value={option}
                          checked={choices[conflict.id] === option}
                          aria-describedby={option === 'both' ? undefined : described}
                          onChange={() => {
                            setChoices((now) => ({ ...now, [conflict.id]: option }));
                            setMissing(0);
                          }}
                        />{' '}
                        {OPTION_LABELS[option]}
                      </label>
                      {option !== 'both' && (
                        <div id={described} className="conflict-content">
                          <SideOf conflict={conflict} side={option} />
                        </div>
                      )}
                    </div>
                  );
                })}
              </fieldset>
            );
          })}
        </div>
        {missing > 0 && (
          <p className="field-error" role="alert">
            Choose mine or theirs for {plural(missing, 'place', 'places')} above, then save.
          </p>
        )}
        <div className="actions actions-start">
          <button type="button" className="button-primary" onClick={saveMerged}>
            Save merged
          </button>
        </div>
      </section>

      <section aria-labelledby={`${id}-whole`} className="conflict-whole">
        <h3 id={`${id}-whole`}>Or keep one copy whole</h3>
        <p className="hint">
          Keep mine: your copy replaces theirs
          {theirs.reason === 'set'
            ? ', which no history keeps (their changes were not live)'
            : ', which stays in the history'}
          . Take theirs: your edits since you opened this copy are dropped.
        </p>
        <div className="actions actions-start">
          <button type="button" onClick={() => onResolve(mine, version)}>
            Keep mine
          </button>
          <button type="button" onClick={() => onResolve(theirFields, version)}>
            Take theirs
          </button>
          <button type="button" className="button-quiet" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </section>
    </Dialog>
  );
}
