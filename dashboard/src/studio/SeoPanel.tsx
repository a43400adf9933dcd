import { useDeferredValue, useMemo } from 'react';
import type { Block } from '../types';
import type { EditableFields } from './drafts';
import type { Item } from './model';
import { CHECK_WORDS, scoresOf } from './scoring';
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
  // Scoring a long body on every keystroke would slow typing: the checklist follows a moment behind.
  const deferredItems = useDeferredValue(items);
  const deferredFields = useDeferredValue(fields);
  const scores = useMemo(
    () => (kind === 'post' ? scoresOf(deferredFields, deferredItems.map((item) => item.block) as Block[]) : null),
    [kind, deferredFields, deferredItems],
  );
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
