import { describe, expect, it } from 'vitest';
import { mergeStructuredData } from './structured-data.js';

const ARTICLE = {
  '@type': 'BlogPosting',
  '@id': 'https://blog.example.com/a#article',
  headline: 'A',
  description: 'Derived',
};
const FAQ = { '@type': 'FAQPage', '@id': 'https://blog.example.com/a#faq', mainEntity: [] };
const OURS = [ARTICLE, FAQ];

describe('mergeStructuredData', () => {
  it('leaves the graph alone without structuredData', () => {
    expect(mergeStructuredData(OURS, null)).toEqual(OURS);
  });

  it('appends a typed object, without its @context', () => {
    expect(mergeStructuredData(OURS, { '@context': 'https://schema.org', '@type': 'Event', name: 'Launch' })).toEqual([
      ARTICLE,
      FAQ,
      { '@type': 'Event', name: 'Launch' },
    ]);
  });

  it('appends the nodes of a @graph in order, dropping every @context and what is not an object', () => {
    const structuredData = {
      '@context': 'https://schema.org',
      '@graph': [
        {
          '@type': 'Event',
          name: 'One',
          location: { '@context': 'https://example.org/other', '@type': 'Place', name: 'Hall' },
        },
        'stray',
        7,
        { '@type': 'Dataset', name: 'Two' },
      ],
    };
    expect(mergeStructuredData(OURS, structuredData)).toEqual([
      ARTICLE,
      FAQ,
      { '@type': 'Event', name: 'One', location: { '@type': 'Place', name: 'Hall' } },
      { '@type': 'Dataset', name: 'Two' },
    ]);
  });

  it('takes the @id off a client node that claims one of Quire’s, so the post keeps its type and identity', () => {
    const merged = mergeStructuredData(OURS, { '@type': 'NewsArticle', '@id': ARTICLE['@id'], headline: 'Hijack' });
    expect(merged).toEqual([ARTICLE, FAQ, { '@type': 'NewsArticle', headline: 'Hijack' }]);
  });

  it('adds the properties of an untyped object to the post node, where they win, but never its @-keywords', () => {
    const merged = mergeStructuredData(OURS, {
      '@id': 'https://evil.example/#x',
      '@context': 'https://schema.org',
      inLanguage: 'en',
      description: 'Client',
    });
    expect(merged).toEqual([{ ...ARTICLE, inLanguage: 'en', description: 'Client' }, FAQ]);
    expect(
      mergeStructuredData(OURS, { '@graph': [{ isAccessibleForFree: true }, { '@type': 'Event', name: 'E' }] }),
    ).toEqual([{ ...ARTICLE, isAccessibleForFree: true }, FAQ, { '@type': 'Event', name: 'E' }]);
  });
});
