import { useEffect, useState } from 'react';
import type { Block } from '../types';
import type { EditableFields } from './drafts';
import type { Item } from './model';
import { CHECK_WORDS, scoresOf, type Scores } from './scoring';

const SCORE_PAUSE_MS = 400;
import { PlainField } from './TextFields';

interface Props {
  kind: 'post' | 'page';
  fields: EditableFields;
  items: Item[];
  jsonLd: unknown;
  issues: Record<string, string>;
  onChange(seo: Record<string, unknown> | null): void;
}

/** The `seo` fields, the live SEO and readability checklist (posts), and the JSON-LD the last save carries. */
export function SeoPanel({ kind, fields, items, jsonLd, issues, onChange }: Props) {
  const seo = fields.seo ?? {};
  const set = (name: string, value: string) => {
    const next: Record<string, unknown> = { ...seo };
    if (value === '') delete next[name];
    else next[name] = value;
    onChange(Object.keys(next).length > 0 ? next : fields.seo === null ? null : {});
  };
  // Scoring reads the whole body (readability counts every syllable): done once the writer pauses, not on
  // every keystroke, which in a long post would hold up the keystroke's own paint.
  const [scores, setScores] = useState<Scores | null>(null);
  useEffect(() => {
    if (kind !== 'post') return;
    const timer = window.setTimeout(
      () => setScores(scoresOf(fields, items.map((item) => item.block) as Block[])),
      scores === null ? 0 : SCORE_PAUSE_MS,
    );
    return () => window.clearTimeout(timer);
    // `scores` only says whether this is the first run.
  }, [kind, fields, items]);
  const text = (name: string) => (typeof seo[name] === 'string' ? (seo[name] as string) : '');

  return (
    <section className="panel" aria-labelledby="panel-seo">
      <h2 id="panel-seo">SEO</h2>
      <PlainField
        label="Focus keyword"
        value={text('focusKeyword')}
        error={issues['/seo/focusKeyword']}
        onChange={(v) => set('focusKeyword', v)}
      />
      <PlainField
        label="SEO title"
        value={text('title')}
        error={issues['/seo/title']}
        hint="Shown by search engines; the title when empty."
        onChange={(v) => set('title', v)}
      />
      <PlainField
        label="SEO description"
        multiline
        value={text('description')}
        error={issues['/seo/description']}
        hint={kind === 'post' ? 'Shown under the link in search results; the excerpt when empty.' : undefined}
        onChange={(v) => set('description', v)}
      />
      <PlainField
        label="Canonical address"
        type="url"
        value={text('canonicalUrl')}
        error={issues['/seo/canonicalUrl']}
        onChange={(v) => set('canonicalUrl', v)}
      />
      {scores && (
        <div className="scores">
          <p>
            <strong>SEO score {scores.seoScore}</strong> · <strong>Readability {scores.readabilityScore}</strong>
          </p>
          <ul className="checklist" aria-label="SEO checklist">
            {scores.checks.map((check) => {
              const words = CHECK_WORDS[check.id] ?? { label: check.id, fix: '' };
              return (
                <li key={check.id} className={check.passed ? 'check-passed' : 'check-failed'}>
                  <span aria-hidden="true">{check.passed ? '✓' : '○'}</span>{' '}
                  <span className="visually-hidden">{check.passed ? 'Passed: ' : 'To do: '}</span>
                  {words.label} ({check.weight}){!check.passed && <span className="hint"> — {words.fix}</span>}
                </li>
              );
            })}
          </ul>
        </div>
      )}
      {jsonLd !== null && jsonLd !== undefined && (
        <details className="json-ld">
          <summary>JSON-LD (as last saved)</summary>
          <pre tabIndex={0} aria-label="JSON-LD">
            {JSON.stringify(jsonLd, null, 2)}
          </pre>
        </details>
      )}
    </section>
  );
}
