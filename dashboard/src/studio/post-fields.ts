import type { Page, Post } from '../types.js';
import { LIMITS, type EditorBlock } from './model.js';

/**
 * The fields of a post or page the studio edits: ONE list, read by the editor's state (fieldsOf), by what a save
 * sends (changedFields) and by the details panel, which shows every `place: 'details'` entry in this order. A new
 * optional string field of the API is one line here, e.g.
 *   { name: 'subtitle', label: 'Subtitle', kind: 'text', for: POST, place: 'details', maxLength: 300, nullable: true },
 */

type Kind = 'post' | 'page';
const BOTH = ['post', 'page'] as const;
const POST = ['post'] as const;

/** What each kind of field holds while it is edited. */
export interface FieldValues {
  /** One line of text; in the details panel, a plain input. */
  text: string;
  /** The URL slug: made from the title until edited (`slugEdited`). */
  slug: string;
  markdown: string;
  blocks: EditorBlock[];
  /** A media id, chosen in the media picker. */
  media: string | null;
  author: string | null;
  category: string | null;
  /** Sent by POST/DELETE …/tags, not in the save's body. */
  tags: string[];
  related: string[];
  seo: Record<string, unknown> | null;
}

export interface StudioField {
  name: string;
  label: string;
  kind: keyof FieldValues;
  /** Which resources have it. */
  for: readonly Kind[];
  /** Where it is edited: the main column (Studio.tsx), the details panel (PostDetails.tsx) or the SEO panel. */
  place: 'main' | 'details' | 'seo';
  maxLength?: number;
  help?: string;
  /** An emptied text goes to the server as null (an optional field), not as "". */
  nullable?: boolean;
  /** Its value in a stored post or page, when it is not the property of the same name. */
  read?(resource: Post | Page): unknown;
}

export const STUDIO_FIELDS = [
  { name: 'title', label: 'Title', kind: 'text', for: BOTH, place: 'main', maxLength: LIMITS.title },
  { name: 'slug', label: 'Slug', kind: 'slug', for: BOTH, place: 'main' },
  { name: 'excerpt', label: 'Excerpt', kind: 'markdown', for: POST, place: 'main', maxLength: LIMITS.excerpt },
  { name: 'bodyJson', label: 'Body', kind: 'blocks', for: BOTH, place: 'main' },
  { name: 'featuredMediaId', label: 'Featured image', kind: 'media', for: POST, place: 'details' },
  { name: 'authorId', label: 'Author', kind: 'author', for: POST, place: 'details' },
  { name: 'categoryId', label: 'Category', kind: 'category', for: POST, place: 'details' },
  {
    name: 'tagIds',
    label: 'Tags',
    kind: 'tags',
    for: POST,
    place: 'details',
    read: (resource) => (resource as Post).tags.map((tag) => tag.id),
  },
  {
    name: 'relatedPostIds',
    label: 'Related posts',
    kind: 'related',
    for: POST,
    place: 'details',
    read: (resource) => (resource as Post).relatedPosts.map((related) => related.id),
  },
  { name: 'seo', label: 'SEO', kind: 'seo', for: BOTH, place: 'seo' },
] as const satisfies readonly StudioField[];

type Entry = (typeof STUDIO_FIELDS)[number];

/** What the editor holds: each field's value by its kind, and whether the slug was typed rather than derived. */
export type EditableFields = { slugEdited: boolean } & { [F in Entry as F['name']]: FieldValues[F['kind']] };
export type FieldName = Entry['name'];

export function emptyOf(kind: keyof FieldValues): unknown {
  switch (kind) {
    case 'text':
    case 'slug':
    case 'markdown':
      return '';
    case 'blocks':
    case 'tags':
    case 'related':
      return [];
    default:
      return null;
  }
}

export const fieldsFor = (kind: Kind): readonly StudioField[] =>
  (STUDIO_FIELDS as readonly StudioField[]).filter((field) => field.for.includes(kind));

/** The editor's values for a stored post or page (null: a new one); a field the resource lacks is empty. */
export function fieldsOf(kind: Kind, resource: Post | Page | null): EditableFields {
  const values: Record<string, unknown> = {};
  for (const field of STUDIO_FIELDS as readonly StudioField[]) {
    const own = resource !== null && field.for.includes(kind);
    const stored = own
      ? field.read
        ? field.read(resource)
        : (resource as unknown as Record<string, unknown>)[field.name]
      : null;
    values[field.name] = stored ?? emptyOf(field.kind);
    if (field.name === 'slug') values.slugEdited = resource !== null;
  }
  return values as EditableFields;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The request body of a save: the fields that differ from the copy the writer started from, so a save of
 * nothing changed sends nothing and keeps no revision; a create sends what is filled in, an overwrite all.
 */
export function changedFields(
  kind: Kind,
  fields: EditableFields,
  base: EditableFields | 'create' | 'all',
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const values = fields as unknown as Record<string, unknown>;
  for (const field of fieldsFor(kind)) {
    if (field.kind === 'tags') continue;
    if (field.kind === 'slug' && !fields.slugEdited) continue;
    const value = field.nullable && values[field.name] === '' ? null : values[field.name];
    if (base === 'all') body[field.name] = value;
    else if (base === 'create') {
      const empty = value === null || value === '' || (Array.isArray(value) && value.length === 0);
      if (!empty) body[field.name] = value;
    } else {
      const before = (base as unknown as Record<string, unknown>)[field.name];
      if (!same(value, field.nullable && before === '' ? null : before)) body[field.name] = value;
    }
  }
  return body;
}
