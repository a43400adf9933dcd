import { Type, type TSchema } from 'typebox';
import { SLUG_MAX_LENGTH, SLUG_PATTERN } from './slug.js';

/** Marks a string whose UUID spelling is lower-cased at validation (http/validation.ts). */
export const LOWERCASE_UUID = 'x-lowercase-uuid';

/** Schema primitives every resource shares. */
export const Uuid = Type.String({ format: 'uuid', [LOWERCASE_UUID]: true });
export const Timestamp = Type.String({ format: 'date-time' });
/** A UUID-shaped slug would be read as an id by `{idOrSlug}`, so nothing could ever be found by it. */
export const Slug = Type.String({
  minLength: 1,
  maxLength: SLUG_MAX_LENGTH,
  pattern: SLUG_PATTERN,
  not: { pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' },
});
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** How deep a client's free-form JSON may nest: far past any schema.org graph, far short of the call stack. */
export const FREE_FORM_MAX_DEPTH = 32;
/** A client's free-form JSON object as a write accepts it (the `x-maxDepth` keyword is in http/validation.ts). */
export const FreeFormObject = Type.Object({}, { additionalProperties: true, 'x-maxDepth': FREE_FORM_MAX_DEPTH });

/** `{idOrSlug}` of a single-resource route: a UUID resolves by id, anything else by slug. */
export const IdOrSlugParams = Type.Object(
  { idOrSlug: Type.String({ minLength: 1, maxLength: 300, [LOWERCASE_UUID]: true }) },
  { additionalProperties: false },
);
export const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });

/** What `q` finds (docs/decisions.md, "q finds words"). */
export const WordsQuery = (fields: string) =>
  Type.String({
    maxLength: 200,
    description: `Words, in any order and case, each found in ${fields}: the last may be the beginning of a word, unless q ends after it with a space or punctuation. Punctuation separates words; a q of no words finds nothing.`,
  });
