/** The `seo` object as the editor holds it: the API's Seo (src/modules/seo/seo.schemas.ts), loosely typed. */
export type SeoObject = Record<string, unknown>;

/** The three nested objects of Seo. */
export type SeoGroup = 'robots' | 'og' | 'twitter';

/** Where a value sits: a top-level field, or a field of robots, og or twitter. */
export type SeoPath = readonly [string] | readonly [SeoGroup, string];

const isObject = (value: unknown): value is SeoObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function seoValue(seo: SeoObject | null, path: SeoPath): unknown {
  const [first, second] = path;
  const value = seo?.[first];
  if (second === undefined) return value;
  return isObject(value) ? value[second] : undefined;
}

/** Whether a value says nothing: absent, an empty string or list, or an object of such values only. */
function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (isObject(value)) return Object.values(value).every(isEmpty);
  return false;
}

/**
 * The Seo object with the value at `path` set, or removed when it is empty. A nested object left with nothing in
 * it goes too, and a Seo object left with nothing becomes null: the API never receives `""` or `{}` from a field
 * the writer cleared.
 */
export function withSeoValue(seo: SeoObject | null, path: SeoPath, value: unknown): SeoObject | null {
  const next: SeoObject = { ...seo };
  const [first, second] = path;
  if (second === undefined) {
    if (isEmpty(value)) delete next[first];
    else next[first] = value;
  } else {
    const group: SeoObject = isObject(next[first]) ? { ...(next[first] as SeoObject) } : {};
    if (isEmpty(value)) delete group[second];
    else group[second] = value;
    if (isEmpty(group)) delete next[first];
    else next[first] = group;
  }
  return Object.keys(next).length > 0 ? next : null;
}

/** The same JSON value whatever the order of the keys. */
function sameValue(a: unknown, b: unknown): boolean {
  if (isEmpty(a) && isEmpty(b)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((key) => sameValue(a[key], b[key]));
  }
  return a === b;
}

/**
 * The edited Seo, or the server's own copy when both say the same: an edit undone (a field typed into and
 * cleared, a choice changed and changed back) leaves the object exactly as read, so the save sends no `seo` and
 * keeps no revision, even where the stored copy holds `{}` or empty nested objects of its own.
 */
export function settleSeo(edited: SeoObject | null, saved: SeoObject | null): SeoObject | null {
  return sameValue(edited, saved) ? saved : edited;
}

/** Whether any field of a group, or any of the named top-level fields, holds a value. */
export function seoFilled(seo: SeoObject | null, groups: readonly SeoGroup[], fields: readonly string[] = []): boolean {
  return [...groups, ...fields].some((name) => !isEmpty(seo?.[name]));
}

/** Reads and writes one `seo` field by its path, with the server's refusal of it (by its JSON Pointer). */
export interface SeoBinding {
  seo: SeoObject | null;
  value(path: SeoPath): unknown;
  text(path: SeoPath): string;
  error(path: SeoPath): string | undefined;
  set(path: SeoPath, value: unknown): void;
  issues: Record<string, string>;
  workspaceId: string;
}
