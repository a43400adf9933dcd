import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/*
 * The schema.org vocabulary in the shape @adobe/structured-data-validator's SchemaOrgValidator reads
 * (schemaorg-all-https.jsonld: classes with rdfs:subClassOf, properties with schema:domainIncludes),
 * rebuilt from schema-dts's declarations because schema.org itself cannot be reached from here.
 * Parsing the 1 MB declaration file takes about 20 ms, so it is done once per process, with no cache on disk.
 *
 * What schema-dts's generated file looks like, and what each part gives:
 *   export interface XLeaf extends YBase { "@type": "X"; }   the class X (TS names of digit-led classes
 *                                                              start with `_`, the @type literal does not)
 *   export type X = XLeaf | A | B;                           A and B are direct subclasses of X
 *   interface XBase extends YBase { "prop"?: …; }            X is in prop's domain
 * Subclass edges come from the unions, not from `extends`: a class without properties of its own has no
 * Base, so `extends` skips it (AutoPartsStore's Base extends LocalBusinessBase, not Store's).
 * Data types (Text, Number …) are not classes there and are left out; no node of ours is one.
 */

interface Ref {
  '@id': string;
}
export interface VocabularyClass {
  '@id': string;
  '@type': 'rdfs:Class';
  'rdfs:subClassOf'?: Ref[];
}
export interface VocabularyProperty {
  '@id': string;
  '@type': 'rdf:Property';
  'schema:domainIncludes': Ref[];
}
export interface SchemaOrgVocabulary {
  '@graph': Array<VocabularyClass | VocabularyProperty>;
}

const LEAF = /^export (?:interface|type) (\w+)Leaf\b[^{]*\{\s*"@type": "([^"]+)"/gm;
const UNION = /^export type (\w+)(?:<.*?>)? = (.*);$/gm;
const BASE = /^interface (\w+)Base extends [^{]*\{\n([\s\S]*?)\n\}/gm;
const PROPERTY = /^ {4}"([^"@][^"]*)"\??:/gm;

function addTo(map: Map<string, Set<string>>, key: string, value: string) {
  const set = map.get(key);
  if (set) set.add(value);
  else map.set(key, new Set([value]));
}

const refs = (names: Iterable<string>) => [...names].sort().map((name) => ({ '@id': `schema:${name}` }));

export function vocabularyFromDeclarations(declarations: string): SchemaOrgVocabulary {
  /** TypeScript identifier → schema.org class name. */
  const classes = new Map<string, string>();
  for (const [, identifier, name] of declarations.matchAll(LEAF)) {
    // Classes of other vocabularies that schema.org maps to (foaf:Person …) carry a full IRI as their name.
    if (!name!.includes(':')) classes.set(identifier!, name!);
  }

  const parents = new Map<string, Set<string>>();
  for (const [, identifier, union] of declarations.matchAll(UNION)) {
    const parent = classes.get(identifier!);
    if (!parent) continue;
    for (const member of union!.replace(/<[^<>]*>/g, '').split('|')) {
      const child = classes.get(member.trim());
      if (child && child !== parent) addTo(parents, child, parent);
    }
  }

  const domains = new Map<string, Set<string>>();
  for (const [, identifier, body] of declarations.matchAll(BASE)) {
    const name = classes.get(identifier!);
    if (!name) continue;
    for (const [, property] of body!.matchAll(PROPERTY)) addTo(domains, property!, name);
  }

  const classNodes = [...new Set(classes.values())].sort().map((name): VocabularyClass => {
    const of = parents.get(name);
    return of
      ? { '@id': `schema:${name}`, '@type': 'rdfs:Class', 'rdfs:subClassOf': refs(of) }
      : { '@id': `schema:${name}`, '@type': 'rdfs:Class' };
  });
  const propertyNodes = [...domains.keys()].sort().map((name): VocabularyProperty => ({
    '@id': `schema:${name}`,
    '@type': 'rdf:Property',
    'schema:domainIncludes': refs(domains.get(name)!),
  }));
  return { '@graph': [...classNodes, ...propertyNodes] };
}

let memo: SchemaOrgVocabulary | undefined;

/** The vocabulary of the installed schema-dts, built once per process. */
export function schemaOrgVocabulary(): SchemaOrgVocabulary {
  if (!memo) {
    const declarations = createRequire(import.meta.url).resolve('schema-dts/dist/schema.d.ts');
    memo = vocabularyFromDeclarations(readFileSync(declarations, 'utf8'));
  }
  return memo;
}

const hierarchies = new WeakMap<SchemaOrgVocabulary, Map<string, string[]>>();

function hierarchyOf(vocabulary: SchemaOrgVocabulary): Map<string, string[]> {
  let parentsOf = hierarchies.get(vocabulary);
  if (!parentsOf) {
    const local = (ref: Ref) => ref['@id'].slice('schema:'.length);
    parentsOf = new Map();
    for (const node of vocabulary['@graph']) {
      if (node['@type'] === 'rdfs:Class') parentsOf.set(local(node), (node['rdfs:subClassOf'] ?? []).map(local));
    }
    hierarchies.set(vocabulary, parentsOf);
  }
  return parentsOf;
}

/** Every class `name` is, itself included, up to Thing; empty for a name that is no class. */
export function ancestorsOf(vocabulary: SchemaOrgVocabulary, name: string): Set<string> {
  const parentsOf = hierarchyOf(vocabulary);
  const seen = new Set<string>();
  const visit = (current: string) => {
    if (seen.has(current) || !parentsOf.has(current)) return;
    seen.add(current);
    for (const parent of parentsOf.get(current)!) visit(parent);
  };
  visit(name);
  return seen;
}

/** Every class that is `ancestor` or one of its subclasses. */
export function subclassesOf(vocabulary: SchemaOrgVocabulary, ancestor: string): string[] {
  return [...hierarchyOf(vocabulary).keys()].filter((name) => ancestorsOf(vocabulary, name).has(ancestor));
}
