import { useEffect, useId, useState } from 'react';
import { readabilityAdvice, type ReadabilityAdvice } from '../../../src/modules/seo/readability-advice.js';
import type { Block } from '../types';
import { blockLead } from './block-lead';
import './readability.css';

const ADVICE_PAUSE_MS = 400;
/** Buttons shown per check: a long body can fail one on hundreds of blocks, and the first few say enough. */
const JUMPS_SHOWN = 5;

interface Props {
  blocks: readonly Block[];
  /** Moves the editor to the block at this index of `blocks`. */
  onJump(index: number): void;
}

/**
 * The readability advice on the body (docs/seo.md, "Readability advice"): the reading ease, and a checklist
 * whose failing checks lead to the blocks they are about. The same module as the server's score, bundled.
 */
export function ReadabilityPanel({ blocks, onJump }: Props) {
  // The advice reads the whole body, parsing its Markdown: done once the writer pauses, not on every keystroke,
  // which in a long post would hold up the keystroke's own paint.
  const [shown, setShown] = useState<Shown | null>(null);
  useEffect(() => {
    const timer = window.setTimeout(() => setShown(shownOf(blocks)), shown === null ? 0 : ADVICE_PAUSE_MS);
    return () => window.clearTimeout(timer);
    // `shown` only says whether this is the first run.
  }, [blocks]);
  return <ReadabilityChecklist advice={shown?.advice ?? null} leads={shown?.leads ?? NO_LEADS} onJump={onJump} />;
}

interface Shown {
  advice: ReadabilityAdvice;
  /** The first words of each block a button leads to, as they were when the advice was made. */
  leads: ReadonlyMap<number, string>;
}

const NO_LEADS: ReadonlyMap<number, string> = new Map();

function shownOf(blocks: readonly Block[]): Shown {
  const advice = readabilityAdvice(blocks);
  const leads = new Map<number, string>();
  for (const item of advice.items)
    if (!item.passed)
      for (const index of item.where.slice(0, JUMPS_SHOWN))
        if (!leads.has(index)) leads.set(index, blockLead(blocks[index]!));
  return { advice, leads };
}

interface ChecklistProps {
  /** null until the first advice is in. */
  advice: ReadabilityAdvice | null;
  leads: ReadonlyMap<number, string>;
  onJump(index: number): void;
}

/** What the panel shows for one advice. */
export function ReadabilityChecklist({ advice, leads, onJump }: ChecklistProps) {
  const headingId = useId();
  return (
    <section className="panel readability" aria-labelledby={headingId}>
      <h2 id={headingId}>Readability</h2>
      {advice && (
        <>
          <p>
            <strong>Reading ease {advice.score}</strong> · {advice.band}
          </p>
          <ul className="checklist" aria-label="Readability checklist">
            {advice.items.map((item) => (
              <li key={item.id} className={item.passed ? 'check-passed' : 'check-failed'}>
                <span aria-hidden="true">{item.passed ? '✓' : '○'}</span>{' '}
                <span className="visually-hidden">{item.passed ? 'Passed: ' : 'To do: '}</span>
                {item.label}
                {!item.passed && (
                  <>
                    <span className="hint"> — {item.fix}</span>
                    {item.where.length > 0 && (
                      <ul className="readability-jumps" aria-label={`Blocks: ${item.label}`}>
                        {item.where.slice(0, JUMPS_SHOWN).map((index) => (
                          <li key={index}>
                            <JumpButton index={index} lead={leads.get(index) ?? ''} onJump={onJump} />
                          </li>
                        ))}
                        {item.where.length > JUMPS_SHOWN && (
                          <li className="hint">and {item.where.length - JUMPS_SHOWN} more</li>
                        )}
                      </ul>
                    )}
                  </>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function JumpButton({ index, lead, onJump }: { index: number; lead: string; onJump(index: number): void }) {
  return (
    <button type="button" className="button-small" onClick={() => onJump(index)}>
      Go to block {index + 1}
      {lead !== '' && <span className="readability-lead">: “{lead}”</span>}
    </button>
  );
}
