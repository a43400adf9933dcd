import { useEffect, useState } from 'react';
import type { Block } from '../types';
import type { EditableFields } from './drafts';
import type { EditorBlock } from './model';
import { CHECK_WORDS, scoresOf, type Scores } from './scoring';
import type { SeoObject } from '../seo/seo-fields';
import { SeoEditor } from '../seo/SeoEditor';

const SCORE_PAUSE_MS = 400;

interface Props {
  kind: 'post' | 'page';
  workspaceId: string;
  fields: EditableFields;
  /** The `seo` of the server's copy the writer started from: an edit that comes back to it sends nothing. */
  saved: SeoObject | null;
  blocks: readonly EditorBlock[];
  jsonLd: unknown;
  issues: Record<string, string>;
  onChange(seo: SeoObject | null): void;
}

/** Every `seo` field, the live SEO and readability checklist (posts), and the JSON-LD the last save carries. */
export function SeoPanel({ kind, workspaceId, fields, saved, blocks, jsonLd, issues, onChange }: Props) {
  // Scoring reads the whole body (readability counts every syllable): done once the writer pauses, not on
  // every keystroke, which in a long post would hold up the keystroke's own paint.
  const [scores, setScores] = useState<Scores | null>(null);
  useEffect(() => {
    if (kind !== 'post') return;
    const timer = window.setTimeout(
      () => setScores(scoresOf(fields, blocks as Block[])),
      scores === null ? 0 : SCORE_PAUSE_MS,
    );
    return () => window.clearTimeout(timer);
    // `scores` only says whether this is the first run.
  }, [kind, fields, blocks]);

  return (
    <section className="panel" aria-labelledby="panel-seo">
      <h2 id="panel-seo">SEO</h2>
      <SeoEditor
        value={fields.seo}
        saved={saved}
        errors={issues}
        workspaceId={workspaceId}
        onChange={onChange}
        hints={{
          title: 'Shown by search engines; the title when empty.',
          ...(kind === 'post'
            ? { description: 'Shown under the link in search results; the excerpt when empty.' }
            : {}),
        }}
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
