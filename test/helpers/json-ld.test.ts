import { describe, expect, it } from 'vitest';
import { describeIssue, expectValidJsonLd, extractJsonLd, validateJsonLd } from './json-ld.js';

const ld = (...graph: object[]) => ({ '@context': 'https://schema.org', '@graph': graph });
const errorsOf = async (jsonLd: unknown) =>
  (await validateJsonLd(jsonLd)).filter((issue) => issue.severity === 'ERROR').map(describeIssue);

describe('the JSON-LD checks', () => {
  it('hands the validator each node of the graph as a root item, grouped by type', () => {
    const extracted = extractJsonLd(
      ld({ '@type': 'BlogPosting', headline: 'A' }, { '@type': ['Person', 'Patient'], name: 'B' }, { name: 'untyped' }),
    );
    expect(extracted.jsonld).toEqual({
      BlogPosting: [{ '@type': 'BlogPosting', headline: 'A' }],
      Person: [{ '@type': ['Person', 'Patient'], name: 'B' }],
      Patient: [{ '@type': ['Person', 'Patient'], name: 'B' }],
    });
    expect(extracted.errors).toEqual([
      { message: 'JSON-LD object missing @type attribute', format: 'jsonld', source: '{"name":"untyped"}' },
    ]);
  });

  it('passes a valid graph, warnings aside', async () => {
    const warnings = await expectValidJsonLd(
      ld(
        {
          '@type': 'BlogPosting',
          '@id': 'https://x.example/a#article',
          headline: 'A',
          author: { '@type': 'Person', name: 'B' },
          mainEntityOfPage: { '@id': 'https://x.example/a#faq' },
        },
        {
          '@type': 'FAQPage',
          '@id': 'https://x.example/a#faq',
          mainEntity: [{ '@type': 'Question', name: 'Q', acceptedAnswer: { '@type': 'Answer', text: 'A' } }],
        },
      ),
    );
    expect(warnings.map(describeIssue)).toEqual([
      'WARNING BlogPosting [0]: Missing field "datePublished" (optional) (datePublished)',
      'WARNING BlogPosting [0]: Missing field "dateModified" (optional) (dateModified)',
      'WARNING BlogPosting [0]: Missing field "image" (optional) (image)',
    ]);
  });

  it('fails what schema.org, Google or the graph itself refuses', async () => {
    expect(await errorsOf(ld({ '@type': 'BlogPost', headline: 'A' }))).toEqual([
      'ERROR BlogPost [0]: Type "BlogPost" is not a valid schema.org type (@type)',
    ]);
    expect(await errorsOf(ld({ '@type': 'BlogPosting', headline: 'x'.repeat(111) }))).toEqual([
      'ERROR BlogPosting [0]: "headline" is longer than 110 characters (headline)',
    ]);
    expect(await errorsOf(ld({ '@type': 'FAQPage', mainEntity: [{ '@type': 'Question', name: 'Q' }] }))).toEqual([
      'ERROR FAQPage [0] > mainEntity Question [0]: Required attribute "acceptedAnswer" is missing (acceptedAnswer)',
    ]);
    expect(await errorsOf(ld({ '@type': 'HowTo', name: 'H', step: [] }))).toEqual([
      'ERROR HowTo [0]: Required attribute "step" is missing (step)',
    ]);
    expect(await errorsOf(ld({ '@type': 'Person' }))).toEqual([
      'ERROR Person [0]: Required attribute "name" is missing (name)',
    ]);
    expect(await errorsOf(ld({ name: 'untyped' }))).toEqual(['ERROR jsonld: JSON-LD object missing @type attribute']);
    expect(await errorsOf({ '@graph': [] })).toEqual([
      'ERROR graph: not {"@context": "https://schema.org", "@graph": [...]}',
      'ERROR jsonld: JSON-LD object missing @context attribute',
    ]);
    expect(
      await errorsOf(
        ld(
          {
            '@type': 'WebPage',
            '@id': 'https://x.example/',
            breadcrumb: { '@id': 'https://x.example/#crumbs' },
            url: '/relative',
          },
          { '@type': 'Thing', '@id': 'https://x.example/', name: 'T' },
        ),
      ),
    ).toEqual([
      'ERROR graph: @id https://x.example/ names two nodes of the graph',
      'ERROR graph: /@graph/0/breadcrumb: reference https://x.example/#crumbs to no node of the graph',
      'ERROR graph: /@graph/0/url: /relative is no absolute http(s) URL',
    ]);
  });

  it('warns about a property outside the type’s domain', async () => {
    const issues = await validateJsonLd(ld({ '@type': 'Person', name: 'A', headline: 'B' }));
    expect(issues.map(describeIssue)).toEqual([
      'WARNING Person [0]: Property "headline" for type "Person" is not supported by the schema.org specification (headline)',
    ]);
  });
});
