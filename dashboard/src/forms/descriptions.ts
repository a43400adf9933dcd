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
  {
    name: 'previewUrlPattern',
    label: 'Preview URL pattern',
    kind: 'text',
    help: 'Where the site shows a draft. Must contain {token}; may use {type}, {id} and {slug}, such as /api/preview?token={token}.',
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

/**
 * An author: its own fields, then (`group: 'person'`) the nested `person` object, named by its path
 * (`person/jobTitle`) as a refusal's pointer names it. The avatar is chosen, not typed; the SEO is the SEO editor's.
 */
export const AUTHOR_FIELDS = [
  { name: 'displayName', label: 'Name', kind: 'text', required: true, maxLength: 100 },
  { name: 'slug', label: 'Slug', kind: 'text', className: 'mono' },
  { name: 'avatarMediaId', label: 'Avatar', kind: 'custom' },
  { name: 'bio', label: 'Bio', kind: 'textarea', rows: 4 },
  {
    name: 'credentials',
    label: 'Credentials',
    kind: 'text',
    help: 'Qualifications readers should know, such as “Registered dietitian”.',
  },
  {
    name: 'sameAs',
    label: 'Profiles elsewhere',
    kind: 'textarea',
    help: 'Full addresses of the author’s other profiles, one a line.',
  },
  {
    name: 'isActive',
    label: 'Active',
    kind: 'checkbox',
    help: 'Inactive authors stay on their posts but are not offered for new ones.',
  },
  { name: 'person/jobTitle', label: 'Job title', kind: 'text', group: 'person' },
  { name: 'person/worksFor', label: 'Works for', kind: 'text', group: 'person' },
  { name: 'person/alumniOf', label: 'Studied at', kind: 'text', group: 'person' },
  { name: 'person/award', label: 'Award', kind: 'text', group: 'person' },
  { name: 'person/honorificPrefix', label: 'Title before the name', kind: 'text', group: 'person' },
  { name: 'person/honorificSuffix', label: 'Letters after the name', kind: 'text', group: 'person' },
  { name: 'person/knowsAbout', label: 'Knows about', kind: 'textarea', help: 'Topics, one a line.', group: 'person' },
] as const satisfies readonly FieldSpec[];
