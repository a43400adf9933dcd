import type { Node } from './json-ld.js';

/*
 * A post's `structuredData` joins the graph Quire builds, without taking it over (docs/seo.md):
 *   - its nodes are its `@graph` when it has one, else the object itself;
 *   - a typed node is appended as it is; one that claims the @id of a node Quire built loses that @id,
 *     so it cannot retype or rewrite the post's own nodes;
 *   - an untyped node has no identity of its own: its properties are added to the post's main node (and
 *     win over Quire's, being what the client asked for), except `@`-keywords;
 *   - every `@context` inside is dropped: the graph has one context, schema.org's, at its top.
 */

const isObject = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function withoutContext(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutContext);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).flatMap(([key, inner]) => (key === '@context' ? [] : [[key, withoutContext(inner)]])),
  );
}

function clientNodes(structuredData: Node): Node[] {
  const clean = withoutContext(structuredData) as Node;
  const inner = clean['@graph'];
  if (inner === undefined) return [clean];
  return (Array.isArray(inner) ? inner : [inner]).filter(isObject);
}

/** `nodes[0]` is the main node (the post); the rest keep their order and the client's come last. */
export function mergeStructuredData(nodes: readonly Node[], structuredData: Record<string, unknown> | null): Node[] {
  const [main, ...rest] = nodes;
  if (!structuredData || !main) return [...nodes];
  const taken = new Set<unknown>(nodes.map((node) => node['@id']).filter((id) => typeof id === 'string'));
  let merged = main;
  const appended: Node[] = [];
  for (const node of clientNodes(structuredData)) {
    if (node['@type'] === undefined) {
      merged = { ...merged, ...Object.fromEntries(Object.entries(node).filter(([key]) => !key.startsWith('@'))) };
    } else if (taken.has(node['@id'])) {
      const { '@id': _taken, ...anonymous } = node;
      appended.push(anonymous);
    } else appended.push(node);
  }
  return [merged, ...rest, ...appended];
}
