import type { ReactNode } from 'react';
import { seoValue, settleSeo, withSeoValue, type SeoBinding, type SeoObject } from './seo-fields';
import { SEO_LABELS } from './seo-labels';
import { KeywordsField } from './SeoInputs';
import { IndexingSection, SharingSection, textField } from './SeoSections';

/** The editor's parts, in the order it shows them. */
export type SeoPart = 'keywords' | 'texts' | 'sharing' | 'indexing';
const ALL_PARTS: readonly SeoPart[] = ['keywords', 'texts', 'sharing', 'indexing'];

/** Refusals of a whole object rather than of one of its fields: said above the fields. */
const WHOLE = ['/seo', '/seo/og', '/seo/twitter', '/seo/robots'];

interface Props {
  /** The nested `seo` object; null when it holds nothing. */
  value: SeoObject | null;
  /** Null once every field is cleared: nothing empty (`""`, `{}`) is ever handed back. */
  onChange(seo: SeoObject | null): void;
  /** The server's refusals, by JSON Pointer (`/seo/og/title`); those not under `/seo` are ignored. */
  errors: Record<string, string>;
  workspaceId: string;
  /** The stored copy: an edit that comes back to it hands back this very object, so a save sends no `seo`. */
  saved?: SeoObject | null;
  /** Which parts to show; all of them when not given. */
  parts?: readonly SeoPart[];
  /** Hints that depend on the resource (what the title falls back to). */
  hints?: Partial<Record<'title' | 'description', ReactNode>>;
}

/** The first refusal of anything below a pointer (one keyword of the list), for a field that holds them all. */
export function issueUnder(issues: Record<string, string>, prefix: string): string | undefined {
  return Object.entries(issues).find(([path]) => path.startsWith(prefix))?.[1];
}

/** How the editor reads and writes one field of the value, with the refusal of it. */
export function seoBinding({
  value,
  onChange,
  errors,
  workspaceId,
  saved = null,
}: Pick<Props, 'value' | 'onChange' | 'errors' | 'workspaceId' | 'saved'>): SeoBinding {
  return {
    seo: value,
    value: (path) => seoValue(value, path),
    text: (path) => {
      const found = seoValue(value, path);
      return typeof found === 'string' ? found : '';
    },
    error: (path) => errors[`/seo/${path.join('/')}`],
    set: (path, next) => onChange(settleSeo(withSeoValue(value, path, next), saved)),
    issues: errors,
    workspaceId,
  };
}

/**
 * Every field of the API's Seo, edited in place in the nested object: the studio's SEO panel and the library's
 * author, tag and category forms draw the same fields with the same labels, and a refusal's pointer lands on its
 * field in all of them.
 */
export function SeoEditor(props: Props) {
  const { errors, parts = ALL_PARTS, hints = {} } = props;
  const bind = seoBinding(props);
  const shown = new Set(parts);
  const whole = WHOLE.filter((pointer) => errors[pointer]);
  return (
    <>
      {whole.map((pointer) => (
        <p key={pointer} className="field-error">
          {SEO_LABELS[pointer.slice(1)]}: {errors[pointer]}
        </p>
      ))}
      {shown.has('keywords') && (
        <>
          {textField(bind, ['focusKeyword'])}
          <KeywordsField
            label={SEO_LABELS['seo/secondaryKeywords']!}
            hint="One per line, up to 20."
            value={bind.value(['secondaryKeywords']) as string[] | undefined}
            error={bind.error(['secondaryKeywords']) ?? issueUnder(errors, '/seo/secondaryKeywords/')}
            onChange={(v) => bind.set(['secondaryKeywords'], v)}
          />
        </>
      )}
      {shown.has('texts') && (
        <>
          {textField(bind, ['title'], hints.title ? { hint: hints.title } : {})}
          {textField(bind, ['description'], {
            multiline: true,
            ...(hints.description ? { hint: hints.description } : {}),
          })}
          {textField(bind, ['canonicalUrl'], { type: 'url' })}
          {textField(bind, ['breadcrumbsTitle'], { hint: 'A shorter name for breadcrumb trails.' })}
        </>
      )}
      {shown.has('sharing') && <SharingSection bind={bind} />}
      {shown.has('indexing') && <IndexingSection bind={bind} />}
    </>
  );
}

/**
 * The editor as the library's forms hold it: a closed section (most writers never open it) that opens when the
 * server refused one of its values.
 */
export function SeoFormSection(props: Omit<Props, 'parts'>) {
  const refused = Object.keys(props.errors).some((pointer) => pointer === '/seo' || pointer.startsWith('/seo/'));
  return (
    <details className="form-section" open={refused || undefined}>
      <summary>Search engines (SEO)</summary>
      <div className="stack">
        <SeoEditor {...props} />
      </div>
    </details>
  );
}
