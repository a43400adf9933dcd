import { describe, expect, it } from 'vitest';
import {
  ancestorsOf,
  schemaOrgVocabulary,
  subclassesOf,
  vocabularyFromDeclarations,
  type VocabularyClass,
  type VocabularyProperty,
} from './schemaorg-vocabulary.js';

const vocabulary = schemaOrgVocabulary();
const node = (id: string) => vocabulary['@graph'].find((entry) => entry['@id'] === `schema:${id}`);
const domainOf = (property: string) =>
  ((node(property) as VocabularyProperty | undefined)?.['schema:domainIncludes'] ?? []).map((ref) => ref['@id']);
/** What SchemaOrgValidator asks: is `property` declared on the type or one of its ancestors? */
const allows = (type: string, property: string) =>
  domainOf(property).some((domain) => ancestorsOf(vocabulary, type).has(domain.slice('schema:'.length)));

describe('the schema.org vocabulary built from schema-dts', () => {
  it('knows the class chain BlogPosting → SocialMediaPosting → Article → CreativeWork → Thing', () => {
    expect(node('BlogPosting')).toEqual({
      '@id': 'schema:BlogPosting',
      '@type': 'rdfs:Class',
      'rdfs:subClassOf': [{ '@id': 'schema:SocialMediaPosting' }],
    });
    expect(node('Article')).toEqual({
      '@id': 'schema:Article',
      '@type': 'rdfs:Class',
      'rdfs:subClassOf': [{ '@id': 'schema:CreativeWork' }],
    });
    expect(node('Thing')).toEqual({ '@id': 'schema:Thing', '@type': 'rdfs:Class' });
    expect([...ancestorsOf(vocabulary, 'BlogPosting')]).toEqual([
      'BlogPosting',
      'SocialMediaPosting',
      'Article',
      'CreativeWork',
      'Thing',
    ]);
  });

  it('keeps several parents, and classes without properties of their own', () => {
    // AutomotiveBusiness and Store declare no property, so schema-dts's `extends` skips both.
    expect((node('AutoPartsStore') as VocabularyClass)['rdfs:subClassOf']).toEqual([
      { '@id': 'schema:AutomotiveBusiness' },
      { '@id': 'schema:Store' },
    ]);
    expect(ancestorsOf(vocabulary, 'FAQPage')).toEqual(new Set(['FAQPage', 'WebPage', 'CreativeWork', 'Thing']));
    expect(node('3DModel')).toMatchObject({
      '@type': 'rdfs:Class',
      'rdfs:subClassOf': [{ '@id': 'schema:MediaObject' }],
    });
    expect(subclassesOf(vocabulary, 'Article')).toEqual(
      expect.arrayContaining(['Article', 'BlogPosting', 'NewsArticle', 'TechArticle']),
    );
    expect(subclassesOf(vocabulary, 'Article')).not.toContain('WebPage');
  });

  it('declares each property on its domains, inherited down the chain', () => {
    expect(node('headline')).toEqual({
      '@id': 'schema:headline',
      '@type': 'rdf:Property',
      'schema:domainIncludes': [{ '@id': 'schema:CreativeWork' }],
    });
    expect(allows('BlogPosting', 'headline')).toBe(true);
    expect(allows('BlogPosting', 'wordCount')).toBe(true);
    expect(allows('BlogPosting', 'name')).toBe(true);
    expect(allows('BlogPosting', 'foo')).toBe(false);
    expect(allows('Person', 'headline')).toBe(false);
    expect(allows('Person', 'knowsAbout')).toBe(true);
    expect(node('foo')).toBeUndefined();
  });

  it('holds schema.org classes only, at a size worth building per process', () => {
    const classes = vocabulary['@graph'].filter((entry) => entry['@type'] === 'rdfs:Class');
    expect(classes.length).toBeGreaterThan(800);
    expect(classes.filter((entry) => entry['@id'].includes('://'))).toEqual([]);
    expect(vocabulary['@graph'].filter((entry) => entry['@type'] === 'rdf:Property').length).toBeGreaterThan(1400);
  });

  it('reads the declaration shapes schema-dts generates', () => {
    const declarations = [
      'interface ThingBase extends Partial<IdReference> {',
      '    /** The name. */',
      '    "name"?: SchemaValue<Text, "name">;',
      '}',
      'export interface ThingLeaf extends ThingBase {',
      '    "@type": "Thing";',
      '}',
      'export type Thing = ThingLeaf | CreativeWork | string;',
      'interface CreativeWorkBase extends ThingBase {',
      '    "headline"?: SchemaValue<Text, "headline">;',
      '    "name"?: SchemaValue<Text, "name">;',
      '}',
      'export interface CreativeWorkLeaf extends CreativeWorkBase {',
      '    "@type": "CreativeWork";',
      '}',
      'export type CreativeWork = CreativeWorkLeaf | _3DModel;',
      'export interface _3DModelLeaf extends CreativeWorkBase {',
      '    "@type": "3DModel";',
      '}',
      'export type _3DModel = _3DModelLeaf;',
    ].join('\n');
    expect(vocabularyFromDeclarations(declarations)['@graph']).toEqual([
      { '@id': 'schema:3DModel', '@type': 'rdfs:Class', 'rdfs:subClassOf': [{ '@id': 'schema:CreativeWork' }] },
      { '@id': 'schema:CreativeWork', '@type': 'rdfs:Class', 'rdfs:subClassOf': [{ '@id': 'schema:Thing' }] },
      { '@id': 'schema:Thing', '@type': 'rdfs:Class' },
      {
        '@id': 'schema:headline',
        '@type': 'rdf:Property',
        'schema:domainIncludes': [{ '@id': 'schema:CreativeWork' }],
      },
      {
        '@id': 'schema:name',
        '@type': 'rdf:Property',
        'schema:domainIncludes': [{ '@id': 'schema:CreativeWork' }, { '@id': 'schema:Thing' }],
      },
    ]);
  });
});
