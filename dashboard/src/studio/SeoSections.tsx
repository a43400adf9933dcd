import type { ReactNode } from 'react';
import { seoFilled, type SeoBinding, type SeoPath } from './seo-fields';
import { ImageField, NumberField, OptionField, SeoSection, SwitchField } from './SeoInputs';
import { PlainField } from './TextFields';

const flagged = (bind: SeoBinding, prefixes: readonly string[]) =>
  Object.keys(bind.issues).some((path) => prefixes.some((prefix) => path.startsWith(prefix)));

export function textField(
  bind: SeoBinding,
  path: SeoPath,
  label: string,
  extra: { hint?: ReactNode; multiline?: boolean; type?: string } = {},
) {
  return (
    <PlainField
      label={label}
      value={bind.text(path)}
      error={bind.error(path)}
      onChange={(v) => bind.set(path, v)}
      {...extra}
    />
  );
}

function imageField(bind: SeoBinding, group: 'og' | 'twitter', label: string) {
  return (
    <ImageField
      label={label}
      workspaceId={bind.workspaceId}
      value={bind.text([group, 'imageMediaId']) || undefined}
      error={bind.error([group, 'imageMediaId'])}
      onChange={(v) => bind.set([group, 'imageMediaId'], v)}
    />
  );
}

const CARDS = [
  { value: 'summary', label: 'Summary' },
  { value: 'summary_large_image', label: 'Summary with large image' },
  { value: 'app', label: 'App' },
  { value: 'player', label: 'Player' },
];

/** `seo.og` and `seo.twitter`: how the post looks where a link to it is shared. */
export function SharingSection({ bind }: { bind: SeoBinding }) {
  return (
    <SeoSection
      title="Social sharing"
      filled={seoFilled(bind.seo, ['og', 'twitter'])}
      flagged={flagged(bind, ['/seo/og', '/seo/twitter'])}
    >
      <fieldset className="seo-group">
        <legend>When shared (Open Graph: Facebook, LinkedIn, chat apps)</legend>
        {textField(bind, ['og', 'title'], 'Title when shared', { hint: 'The SEO title when empty.' })}
        {textField(bind, ['og', 'description'], 'Description when shared', { multiline: true })}
        {textField(bind, ['og', 'type'], 'Type when shared', {
          hint: 'The Open Graph type, such as article or website.',
        })}
        {imageField(bind, 'og', 'Image when shared')}
      </fieldset>
      <fieldset className="seo-group">
        <legend>On X (Twitter)</legend>
        <OptionField
          label="X (Twitter) card"
          options={CARDS}
          value={bind.text(['twitter', 'card']) || undefined}
          error={bind.error(['twitter', 'card'])}
          onChange={(v) => bind.set(['twitter', 'card'], v)}
        />
        {textField(bind, ['twitter', 'title'], 'Title on X (Twitter)')}
        {textField(bind, ['twitter', 'description'], 'Description on X (Twitter)', { multiline: true })}
        {textField(bind, ['twitter', 'creator'], 'Creator’s X (Twitter) handle', { hint: 'Such as @ada.' })}
        {imageField(bind, 'twitter', 'Image on X (Twitter)')}
      </fieldset>
    </SeoSection>
  );
}

const SWITCHES: Array<{ name: string; label: string; on: string; off: string }> = [
  { name: 'index', label: 'Search results', on: 'Show (index)', off: 'Hide (noindex)' },
  { name: 'follow', label: 'Links', on: 'Follow (follow)', off: 'Do not follow (nofollow)' },
  { name: 'archive', label: 'Cached copy', on: 'Allow (archive)', off: 'Refuse (noarchive)' },
  { name: 'imageIndex', label: 'Images in image search', on: 'Allow (imageindex)', off: 'Refuse (noimageindex)' },
  { name: 'snippet', label: 'Text snippet', on: 'Show (snippet)', off: 'Hide (nosnippet)' },
];

const PREVIEWS = ['none', 'standard', 'large'].map((value) => ({
  value,
  label: value[0]!.toUpperCase() + value.slice(1),
}));

/** The robots directives, and the fields that say why a post is kept out of search or sent elsewhere. */
export function IndexingSection({ bind }: { bind: SeoBinding }) {
  const number = (name: string, label: string, hint: string) => (
    <NumberField
      label={label}
      hint={hint}
      value={bind.value(['robots', name]) as number | undefined}
      error={bind.error(['robots', name])}
      onChange={(v) => bind.set(['robots', name], v)}
    />
  );
  return (
    <SeoSection
      title="Search engine indexing"
      filled={seoFilled(bind.seo, ['robots'], ['noindexReason', 'redirectTo'])}
      flagged={flagged(bind, ['/seo/robots', '/seo/noindexReason', '/seo/redirectTo'])}
    >
      <fieldset className="seo-group">
        <legend>Robots directives</legend>
        <p className="hint">Default leaves the choice to each search engine; nothing is sent for it.</p>
        {SWITCHES.map((s) => (
          <SwitchField
            key={s.name}
            label={s.label}
            on={s.on}
            off={s.off}
            value={bind.value(['robots', s.name]) as boolean | undefined}
            error={bind.error(['robots', s.name])}
            onChange={(v) => bind.set(['robots', s.name], v)}
          />
        ))}
        {number('maxSnippet', 'Longest snippet (characters)', '-1 for no limit, 0 for none.')}
        <OptionField
          label="Image preview size"
          options={PREVIEWS}
          value={bind.text(['robots', 'maxImagePreview']) || undefined}
          error={bind.error(['robots', 'maxImagePreview'])}
          onChange={(v) => bind.set(['robots', 'maxImagePreview'], v)}
        />
        {number('maxVideoPreview', 'Longest video preview (seconds)', '-1 for no limit, 0 for a still image.')}
      </fieldset>
      {textField(bind, ['noindexReason'], 'Why it is hidden', { hint: 'A note for your team.' })}
      {textField(bind, ['redirectTo'], 'Redirect to', { hint: 'An address that replaces this one.' })}
    </SeoSection>
  );
}
