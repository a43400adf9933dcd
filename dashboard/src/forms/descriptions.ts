import type { FieldSpec } from './describe.js';

/**
 * The library's forms, one description per resource: the fields in the order the form shows them, with their
 * limits and hints. The form renders them with DescribedFields and names them in a refusal with labelsOf.
 */

export const TAG_FIELDS = [
  { name: 'name', label: 'Name', kind: 'text', maxLength: 100 },
  { name: 'slug', label: 'Slug', kind: 'text', mono: true },
] as const satisfies readonly FieldSpec[];

export const REDIRECT_KINDS = [
  { value: '301', label: '301: moved for good' },
  { value: '308', label: '308: moved for good, same method' },
  { value: '302', label: '302: moved for now' },
  { value: '307', label: '307: moved for now, same method' },
];

export const REDIRECT_FIELDS = [
  {
    name: 'fromPath',
    label: 'From',
    kind: 'text',
    mono: true,
    help: 'The old path on your site, such as /old-page.',
  },
  {
    name: 'toPath',
    label: 'To',
    kind: 'text',
    mono: true,
    help: 'A path on your site, such as /new-page, or a full address starting with https://.',
  },
  {
    name: 'statusCode',
    label: 'Kind',
    kind: 'select',
    options: REDIRECT_KINDS,
    help: 'For good: search engines move the old address’s ranking to the new one. For now: they keep the old address. “Same method” matters only to forms and API clients.',
  },
] as const satisfies readonly FieldSpec[];

/** The site settings (SiteSettings), in the two fieldsets of the Settings screen; the logo is chosen, not typed. */
export const SETTINGS_FIELDS = [
  { name: 'siteName', label: 'Site name', kind: 'text', group: 'site' },
  {
    name: 'siteUrl',
    label: 'Site URL',
    kind: 'url',
    help: 'The public address of the site, such as https://example.com.',
    group: 'site',
  },
  { name: 'logoMediaId', label: 'Logo', kind: 'custom', group: 'site' },
  { name: 'publisherName', label: 'Publisher name', kind: 'text', group: 'site' },
  { name: 'publisherUrl', label: 'Publisher URL', kind: 'url', group: 'site' },
  {
    name: 'postUrlPattern',
    label: 'Post URL pattern',
    kind: 'text',
    help: 'Must contain {slug}, such as /blog/{slug}.',
    group: 'urls',
  },
  {
    name: 'pageUrlPattern',
    label: 'Page URL pattern',
    kind: 'text',
    help: 'Must contain {slug}, such as /{slug}.',
    group: 'urls',
  },
  {
    name: 'authorUrlPattern',
    label: 'Author URL pattern',
    kind: 'text',
    help: 'Must contain {slug}, such as /authors/{slug}.',
    group: 'urls',
  },
  {
    name: 'categoryUrlPattern',
    label: 'Category URL pattern',
    kind: 'text',
    help: 'May use {path} (parent/child) or {slug}, such as /topics/{path}.',
    group: 'urls',
  },
] as const satisfies readonly FieldSpec[];

export const CATEGORY_SORTS = [
  { value: 'publishedAt', label: 'Publication date' },
  { value: 'createdAt', label: 'Creation date' },
  { value: 'updatedAt', label: 'Last update' },
  { value: 'title', label: 'Title' },
];

/** A category: its own fields, then (`group: 'page'`) how its collection page lists posts. */
export const CATEGORY_FIELDS = [
  { name: 'name', label: 'Name', kind: 'text', maxLength: 100 },
  { name: 'slug', label: 'Slug', kind: 'text', mono: true },
  { name: 'parentId', label: 'Parent', kind: 'select' },
  { name: 'description', label: 'Description', kind: 'textarea' },
  {
    name: 'sortOrder',
    label: 'Position',
    kind: 'text',
    inputMode: 'numeric',
    help: 'Categories with a lower number come first among their siblings.',
  },
  {
    name: 'isActive',
    label: 'Active',
    kind: 'checkbox',
    help: 'Inactive categories keep their posts but are not offered for new ones.',
  },
  {
    name: 'collectionMetadata/includeChildCategories',
    label: 'Include subcategories’ posts',
    kind: 'checkbox',
    help: 'The page lists the posts of every category under this one as well.',
    group: 'page',
  },
  {
    name: 'collectionMetadata/sortPostsBy',
    label: 'Sort its posts by',
    kind: 'select',
    options: CATEGORY_SORTS,
    group: 'page',
  },
] as const satisfies readonly FieldSpec[];
