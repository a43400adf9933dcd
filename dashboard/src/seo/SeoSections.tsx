import type { ReactNode } from 'react';
import { seoFilled, type SeoBinding, type SeoPath } from './seo-fields';
import { ImageField, NumberField, OptionField, SeoSection, SwitchField } from './SeoInputs';
import { PlainField } from '../studio/TextFields';
import { seoLabel } from './seo-labels';

const flagged = (bind: SeoBinding, prefixes: readonly string[]) =>
  Object.keys(bind.issues).some((path) => prefixes.some((prefix) => path.startsWith(prefix)));

export function textField(
  bind: SeoBinding,
  path: SeoPath,
  extra: { hint?: ReactNode; multiline?: boolean; type?: string } = {},
) {
  return (
    <PlainField
      label={seoLabel(path)}
      value={bind.text(path)}
      error={bind.error(path)}
      onChange={(v) => bind.set(path, v)}
      {...extra}
    />
  );
}

function imageField(bind: SeoBinding, group: 'og' | 'twitter') {
  return (
    <ImageField
      label={seoLabel([group, 'imageMediaId'])}
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
        {textField(bind, ['og', 'title'], { hint: 'The SEO title when empty.' })}
        {textField(bind, ['og', 'description'], { multiline: true })}
        {textField(bind, ['og', 'type'], {
          hint: 'The Open Graph type, such as article or website.',
        })}
        {imageField(bind, 'og')}
      </fieldset>
      <fieldset className="seo-group">
        <legend>On X (Twitter)</legend>
        <OptionField
          label={seoLabel(['twitter', 'card'])}
          options={CARDS}
          value={bind.text(['twitter', 'card']) || undefined}
          error={bind.error(['twitter', 'card'])}
          onChange={(v) => bind.set(['twitter', 'card'], v)}
        />
        {textField(bind, ['twitter', 'title'])}
        {textField(bind, ['twitter', 'description'], { multiline: true })}
        {textField(bind, ['twitter', 'creator'], { hint: 'Such as @ada.' })}
        {imageField(bind, 'twitter')}
      </fieldset>
    </SeoSection>
  );
}

const SWITCHES: Array<{ name: string; on: string; off: string }> = [
  { name: 'index', on: 'Show (index)', off: 'Hide (noindex)' },
  { name: 'follow', on: 'Follow (follow)', off: 'Do not follow (nofollow)' },
  { name: 'archive', on: 'Allow (archive)', off: 'Refuse (noarchive)' },
  { name: 'imageIndex', on: 'Allow (imageindex)', off: 'Refuse (noimageindex)' },
  { name: 'snippet', on: 'Show (snippet)', off: 'Hide (nosnippet)' },
];

const PREVIEWS = ['none', 'standard', 'large'].map((value) => ({
  value,
  label: value[0]!.toUpperCase() + value.slice(1),
}));

/** The robots directives, and the fields that say why a post is kept out of search or sent elsewhere. */
export function IndexingSection({ bind }: { bind: SeoBinding }) {
  const number = (name: string, hint: string) => (
    <NumberField
      label={seoLabel(['robots', name])}
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
            label={seoLabel(['robots', s.name])}
            on={s.on}
            off={s.off}
            value={bind.value(['robots', s.name]) as boolean | undefined}
            error={bind.error(['robots', s.name])}
            onChange={(v) => bind.set(['robots', s.name], v)}
          />
        ))}
        {number('maxSnippet', '-1 for no limit, 0 for none.')}
        <OptionField
          label={seoLabel(['robots', 'maxImagePreview'])}
          options={PREVIEWS}
          value={bind.text(['robots', 'maxImagePreview']) || undefined}
          error={bind.error(['robots', 'maxImagePreview'])}
          onChange={(v) => bind.set(['robots', 'maxImagePreview'], v)}
        />
        {number('maxVideoPreview', '-1 for no limit, 0 for a still image.')}
      </fieldset>
      {textField(bind, ['noindexReason'], { hint: 'A note for your team.' })}
      {textField(bind, ['redirectTo'], { hint: 'An address that replaces this one.' })}
    </SeoSection>
  );
}
