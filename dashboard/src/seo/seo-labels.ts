/**
 * The label of every field of the SEO editor, by its path under the resource (`seo/og/title`): the editor draws
 * its fields with them, and a library form names a refused one with them in its summary ("Check Canonical
 * address."). The group and `seo` entries name a refusal of a whole object.
 */
export const SEO_LABELS: Record<string, string> = {
  'seo/focusKeyword': 'Focus keyword',
  'seo/secondaryKeywords': 'Other keywords',
  'seo/title': 'SEO title',
  'seo/description': 'SEO description',
  'seo/canonicalUrl': 'Canonical address',
  'seo/breadcrumbsTitle': 'Breadcrumb title',
  'seo/og/title': 'Title when shared',
  'seo/og/description': 'Description when shared',
  'seo/og/type': 'Type when shared',
  'seo/og/imageMediaId': 'Image when shared',
  'seo/twitter/card': 'X (Twitter) card',
  'seo/twitter/title': 'Title on X (Twitter)',
  'seo/twitter/description': 'Description on X (Twitter)',
  'seo/twitter/creator': 'Creator’s X (Twitter) handle',
  'seo/twitter/imageMediaId': 'Image on X (Twitter)',
  'seo/robots/index': 'Search results',
  'seo/robots/follow': 'Links',
  'seo/robots/archive': 'Cached copy',
  'seo/robots/imageIndex': 'Images in image search',
  'seo/robots/snippet': 'Text snippet',
  'seo/robots/maxSnippet': 'Longest snippet (characters)',
  'seo/robots/maxImagePreview': 'Image preview size',
  'seo/robots/maxVideoPreview': 'Longest video preview (seconds)',
  'seo/noindexReason': 'Why it is hidden',
  'seo/redirectTo': 'Redirect to',
  'seo/og': 'Social sharing',
  'seo/twitter': 'On X (Twitter)',
  'seo/robots': 'Robots directives',
  seo: 'Search engines',
};

/** A field's label by its path inside `seo`. */
export const seoLabel = (path: readonly string[]): string => SEO_LABELS[['seo', ...path].join('/')] ?? path.join(' ');

/**
 * A library form's refusals under `seo` (keyed as its labels are, `seo/og/title`) as the editor takes them: by
 * JSON Pointer (`/seo/og/title`), as the studio's are.
 */
export function seoIssues(fields: Partial<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fields)
      .filter((entry): entry is [string, string] => entry[1] !== undefined && /^seo(\/|$)/.test(entry[0]))
      .map(([key, message]) => [`/${key}`, message]),
  );
}
