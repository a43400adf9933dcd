/** Parses a JSON column; null stays null. */
export function parseJson<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}

export function toJson(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

/**
 * `object` as JSON with `raw`'s members after its own, each of their values JSON text already (a stored JSON
 * column), put in as it is rather than parsed and serialized again. A raw value must be one JSON value, which
 * holds for what this codebase wrote with JSON.stringify. A key of `raw` that `object` also has is left out of
 * `object`'s members, so the result has each key once.
 */
export function jsonWithRaw(object: Record<string, unknown>, raw: Readonly<Record<string, string>>): string {
  const own = Object.fromEntries(Object.entries(object).filter(([key]) => !Object.hasOwn(raw, key)));
  const members = Object.entries(raw).map(([key, json]) => `${JSON.stringify(key)}:${json}`);
  if (members.length === 0) return JSON.stringify(own);
  const head = JSON.stringify(own).slice(0, -1);
  return `${head}${head.length > 1 ? ',' : ''}${members.join(',')}}`;
}

/** One JSON Pointer segment (RFC 6901): `~` and `/` escaped. */
export function pointerSegment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

export interface JsonVisit {
  value: unknown;
  /** JSON Pointer of the value, relative to where the walk began. */
  path: string;
  /** 0 for the value the walk began at, 1 for its members, and so on. */
  depth: number;
  /** The member name under which the value sits, when its parent is an object. */
  key: string | undefined;
}

/**
 * The first value of a parsed JSON document, in document order, for which `test` holds, or null. The
 * walk keeps its own stack: JSON.parse accepts documents nested far deeper than the call stack, so a
 * recursive walk would let a client turn a 400 into a stack overflow.
 */
export function findInJson(root: unknown, test: (visit: JsonVisit) => boolean): JsonVisit | null {
  const stack: JsonVisit[] = [{ value: root, path: '', depth: 0, key: undefined }];
  for (let visit = stack.pop(); visit !== undefined; visit = stack.pop()) {
    if (test(visit)) return visit;
    const { value, path, depth } = visit;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i -= 1)
        stack.push({ value: value[i], path: `${path}/${i}`, depth: depth + 1, key: undefined });
    } else if (value !== null && typeof value === 'object') {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i -= 1) {
        const key = keys[i]!;
        const child = (value as Record<string, unknown>)[key];
        stack.push({ value: child, path: `${path}/${pointerSegment(key)}`, depth: depth + 1, key });
      }
    }
  }
  return null;
}
