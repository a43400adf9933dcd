import { Field } from '../components/Field';
import type { Author } from '../types';
import { fromLines, toLines } from './feedback';
import { Checkbox, Select, TextArea } from './inputs';

export type Seo = NonNullable<Author['seo']>;

/**
 * The SEO texts a writer edits here, social sharing's included; the sharing images, the Open Graph type and the
 * finer robots settings are kept as stored.
 */
export interface SeoDraft {
  title: string;
  description: string;
  canonicalUrl: string;
  focusKeyword: string;
  secondaryKeywords: string;
  breadcrumbsTitle: string;
  noindex: boolean;
  nofollow: boolean;
  noindexReason: string;
  redirectTo: string;
  ogTitle: string;
  ogDescription: string;
  twitterCard: string;
  twitterTitle: string;
  twitterDescription: string;
  twitterCreator: string;
}

const TEXTS = [
  'title',
  'description',
  'canonicalUrl',
  'focusKeyword',
  'breadcrumbsTitle',
  'noindexReason',
  'redirectTo',
] as const;

export const SEO_LABELS: Record<string, string> = {
  'seo/title': 'SEO title',
  'seo/description': 'SEO description',
  'seo/canonicalUrl': 'Canonical URL',
  'seo/focusKeyword': 'Focus keyword',
  'seo/secondaryKeywords': 'Other keywords',
  'seo/breadcrumbsTitle': 'Breadcrumb title',
  'seo/robots': 'Search engine indexing',
  'seo/noindexReason': 'Why it is hidden',
  'seo/redirectTo': 'Redirect to',
  'seo/og/title': 'Title when shared',
  'seo/og/description': 'Description when shared',
  'seo/twitter/card': 'X (Twitter) card',
  'seo/twitter/title': 'Title on X (Twitter)',
  'seo/twitter/description': 'Description on X (Twitter)',
  'seo/twitter/creator': 'Creator’s X (Twitter) handle',
  'seo/og': 'Sharing',
  'seo/twitter': 'X (Twitter)',
  // Anything else under seo (Open Graph, Twitter) is named as the section.
  seo: 'Search engines',
};

export function toSeoDraft(seo: Seo | null | undefined): SeoDraft {
  const value = seo ?? {};
  return {
    title: value.title ?? '',
    description: value.description ?? '',
    canonicalUrl: value.canonicalUrl ?? '',
    focusKeyword: value.focusKeyword ?? '',
    secondaryKeywords: toLines(value.secondaryKeywords),
    breadcrumbsTitle: value.breadcrumbsTitle ?? '',
    noindex: value.robots?.index === false,
    nofollow: value.robots?.follow === false,
    noindexReason: value.noindexReason ?? '',
    redirectTo: value.redirectTo ?? '',
    ogTitle: value.og?.title ?? '',
    ogDescription: value.og?.description ?? '',
    twitterCard: value.twitter?.card ?? '',
    twitterTitle: value.twitter?.title ?? '',
    twitterDescription: value.twitter?.description ?? '',
    twitterCreator: value.twitter?.creator ?? '',
  };
}

/** The stored object with the edited fields applied: an emptied text goes, and an empty object is null. */
export function fromSeoDraft(draft: SeoDraft, stored: Seo | null | undefined): Seo | null {
  const seo: Seo = { ...(stored ?? {}) };
  for (const key of TEXTS) {
    const text = draft[key].trim();
    if (text) seo[key] = text;
    else delete seo[key];
  }
  const keywords = fromLines(draft.secondaryKeywords);
  if (keywords.length > 0) seo.secondaryKeywords = keywords;
  else delete seo.secondaryKeywords;
  const robots = { ...(seo.robots ?? {}) };
  if (draft.noindex) robots.index = false;
  else delete robots.index;
  if (draft.nofollow) robots.follow = false;
  else delete robots.follow;
  if (Object.keys(robots).length > 0) seo.robots = robots;
  else delete seo.robots;
  const og = withTexts(seo.og, { title: draft.ogTitle, description: draft.ogDescription });
  if (og) seo.og = og;
  else delete seo.og;
  const twitter = withTexts(seo.twitter, {
    card: draft.twitterCard,
    title: draft.twitterTitle,
    description: draft.twitterDescription,
    creator: draft.twitterCreator,
  }) as Seo['twitter'] | null;
  if (twitter) seo.twitter = twitter;
  else delete seo.twitter;
  return Object.keys(seo).length > 0 ? seo : null;
}

/** A stored sub-object with the edited texts applied; null when nothing is left in it. */
function withTexts<T extends object>(stored: T | undefined, texts: Record<string, string>): T | null {
  const next: Record<string, unknown> = { ...(stored ?? {}) };
  for (const [key, value] of Object.entries(texts)) {
    if (value.trim()) next[key] = value.trim();
    else delete next[key];
  }
  return Object.keys(next).length > 0 ? (next as T) : null;
}

const CARDS = [
  { value: '', label: 'Not set' },
  { value: 'summary', label: 'Summary' },
  { value: 'summary_large_image', label: 'Summary with a large image' },
  { value: 'app', label: 'App' },
  { value: 'player', label: 'Player' },
];

interface Props {
  draft: SeoDraft;
  onChange(draft: SeoDraft): void;
  errors: Partial<Record<string, string>>;
}

/** A closed section (most writers never open it) that opens by itself when the server refused one of its values. */
export function SeoFields({ draft, onChange, errors }: Props) {
  const set = (changes: Partial<SeoDraft>) => onChange({ ...draft, ...changes });
  const refused = Object.keys(errors).some((key) => key === 'seo' || key.startsWith('seo/'));
  const text = (key: (typeof TEXTS)[number], hint?: string) => (
    <Field
      label={SEO_LABELS[`seo/${key}`]!}
      hint={hint}
      error={errors[`seo/${key}`]}
      value={draft[key]}
      onChange={(e) => set({ [key]: e.target.value })}
    />
  );
  return (
    <details className="form-section" open={refused || undefined}>
      <summary>Search engines (SEO)</summary>
      <div className="stack">
        {errors.seo && <p className="field-error">{errors.seo}</p>}
        {text('title', 'Shown as the title in search results; the name is used when empty.')}
        <TextArea
          label={SEO_LABELS['seo/description']!}
          error={errors['seo/description']}
          value={draft.description}
          onChange={(e) => set({ description: e.target.value })}
        />
        {text('canonicalUrl', 'A full address, when another page is the original.')}
        {text('focusKeyword')}
        <TextArea
          label={SEO_LABELS['seo/secondaryKeywords']!}
          hint="One a line."
          error={errors['seo/secondaryKeywords']}
          value={draft.secondaryKeywords}
          onChange={(e) => set({ secondaryKeywords: e.target.value })}
        />
        {text('breadcrumbsTitle', 'A shorter name for breadcrumb trails.')}
        <Checkbox
          label="Ask search engines not to list this page"
          error={errors['seo/robots']}
          checked={draft.noindex}
          onChange={(e) => set({ noindex: e.target.checked })}
        />
        <Checkbox
          label="Ask search engines not to follow its links"
          checked={draft.nofollow}
          onChange={(e) => set({ nofollow: e.target.checked })}
        />
        {text('noindexReason', 'A note for your team on why it is hidden.')}
        {text('redirectTo', 'Where search engines should look instead, if anywhere.')}
        <fieldset className="form-subsection">
          <legend>When shared</legend>
          {errors['seo/og'] && <p className="field-error">{errors['seo/og']}</p>}
          {errors['seo/twitter'] && <p className="field-error">{errors['seo/twitter']}</p>}
          <Field
            label={SEO_LABELS['seo/og/title']!}
            hint="On Facebook, LinkedIn, chat apps; the SEO title is used when empty."
            error={errors['seo/og/title']}
            value={draft.ogTitle}
            onChange={(e) => set({ ogTitle: e.target.value })}
          />
          <TextArea
            label={SEO_LABELS['seo/og/description']!}
            error={errors['seo/og/description']}
            value={draft.ogDescription}
            onChange={(e) => set({ ogDescription: e.target.value })}
          />
          <Select
            label={SEO_LABELS['seo/twitter/card']!}
            options={CARDS}
            error={errors['seo/twitter/card']}
            value={draft.twitterCard}
            onChange={(e) => set({ twitterCard: e.target.value })}
          />
          <Field
            label={SEO_LABELS['seo/twitter/title']!}
            error={errors['seo/twitter/title']}
            value={draft.twitterTitle}
            onChange={(e) => set({ twitterTitle: e.target.value })}
          />
          <TextArea
            label={SEO_LABELS['seo/twitter/description']!}
            error={errors['seo/twitter/description']}
            value={draft.twitterDescription}
            onChange={(e) => set({ twitterDescription: e.target.value })}
          />
          <Field
            label={SEO_LABELS['seo/twitter/creator']!}
            hint="Such as @ada."
            error={errors['seo/twitter/creator']}
            value={draft.twitterCreator}
            onChange={(e) => set({ twitterCreator: e.target.value })}
          />
        </fieldset>
      </div>
    </details>
  );
}
