import type { Static, TSchema } from 'typebox';
import { invalid } from '../../errors.js';
import { toIssue, validatorCompiler, type Validator } from '../../http/validation.js';
import { isUuid, SLUG_MAX_LENGTH, SLUG_PATTERN, slugFrom } from '../../shared/slug.js';
import { storable } from './storable.js';

/*
 * The bodies the runner hands the services, made and checked as a request's would be: the services trust their
 * callers to have validated (the HTTP layer does it for the API), so an import validates with the same schemas
 * and the same validator, and both databases see only what the API would let through.
 */

const validators = new Map<TSchema, Validator>();

/** The body, or the 400 the API would answer it with, each issue at its JSON Pointer. */
export function checked<S extends TSchema>(schema: S, body: unknown): Static<S> {
  let validate = validators.get(schema);
  if (!validate) {
    validate = validatorCompiler({ schema, httpPart: 'body' });
    validators.set(schema, validate);
  }
  if (!validate(body)) throw invalid((validate.errors ?? []).map((error) => toIssue(error, 'body')));
  return body as Static<S>;
}

/** Text cut to a limit at a word boundary when one is near, white space collapsed. */
export function fitted(text: string | null | undefined, max: number): string | undefined {
  const clean = storable(text ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  if (clean === '') return undefined;
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max * 0.8 ? cut.slice(0, space) : cut}…`;
}

const SLUG = new RegExp(SLUG_PATTERN);

/**
 * The source's slug when Quire can keep it as it is (so the URL can stay the same); else one made from it, or from
 * the title: a percent-encoded WordPress slug is decoded first, then made kebab-case.
 */
export function importSlug(slug: string | undefined, title: string, fallback: string): string {
  let decoded = slug?.trim() ?? '';
  try {
    decoded = decodeURIComponent(decoded);
  } catch {
    // Not percent-encoding after all: kept as written.
  }
  const lower = decoded.toLowerCase();
  if (SLUG.test(lower) && lower.length <= SLUG_MAX_LENGTH && !isUuid(lower)) return lower;
  return slugFrom(decoded, slugFrom(title, fallback));
}

/** A URL the API's `uri` format accepts (absolute, http or https), or undefined. */
export function webUrl(url: string | null | undefined, max = 2000): string | undefined {
  if (!url || url.length > max) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.toString() : undefined;
  } catch {
    return undefined;
  }
}
