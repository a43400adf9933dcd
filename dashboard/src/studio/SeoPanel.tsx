import type { EditableFields } from './drafts';
import { CHECK_WORDS, type Scores } from './scoring';
import type { SeoObject } from '../seo/seo-fields';
import { SeoEditor } from '../seo/SeoEditor';

interface Props {
  kind: 'post' | 'page';
  workspaceId: string;
  fields: EditableFields;
  /** The `seo` of the server's copy the writer started from: an edit that comes back to it sends nothing. */
  saved: SeoObject | null;
  /** The studio's live count (useScores), shared with its bar; posts only. */
  scores: Scores | null;
  jsonLd: unknown;
  issues: Record<string, string>;
  onChange(seo: SeoObject | null): void;
}

/** Every `seo` field, the live SEO and readability checklist (posts), and the JSON-LD the last save carries. */
export function SeoPanel({ kind, workspaceId, fields, saved, scores, jsonLd, issues, onChange }: Props) {
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
      {kind === 'post' && scores && (
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
