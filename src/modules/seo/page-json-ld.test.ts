import { describe, expect, it } from 'vitest';
import type { StoredBlock } from '@quire/blocks';
import { NO_SETTINGS, SETTINGS } from '../../../test/helpers/json-ld-fixtures.js';
import { expectValidJsonLd } from '../../../test/helpers/json-ld.js';
import { pageJsonLd, type PageForLd } from './page-json-ld.js';

const URL = 'https://blog.example.com/about';
const FAQ: StoredBlock = { type: 'faq', items: [{ question: 'Who?', answer: 'Us.' }] };
const QUESTION = { '@type': 'Question', name: 'Who?', acceptedAnswer: { '@type': 'Answer', text: 'Us.' } };

const page = (fields: Partial<PageForLd> = {}): PageForLd => ({
  slug: 'about',
  title: 'About us',
  pageType: 'AboutPage',
  seo: null,
  publishedAt: '2025-03-01T10:00:00.000Z',
  updatedAt: '2025-03-02T11:00:00.000Z',
  blocks: [{ type: 'paragraph', text: 'A small team.' }],
  ...fields,
});

describe('pageJsonLd', () => {
  it('is the page as its pageType, with the publisher, and an FAQPage beside it for faq blocks', async () => {
    const jsonLd = pageJsonLd(
      page({ seo: { title: 'About Engines Weekly', description: 'Who writes it.' }, blocks: [FAQ] }),
      SETTINGS,
      null,
    );
    expect(jsonLd).toEqual({
      '@context': 'https://schema.org',
      '@graph': [
        {
          '@type': 'AboutPage',
          '@id': URL,
          url: URL,
          name: 'About Engines Weekly',
          description: 'Who writes it.',
          datePublished: '2025-03-01T10:00:00.000Z',
          dateModified: '2025-03-02T11:00:00.000Z',
          publisher: {
            '@type': 'Organization',
            '@id': 'https://blog.example.com#organization',
            name: 'Engines Weekly',
            url: 'https://blog.example.com',
          },
        },
        { '@type': 'FAQPage', '@id': `${URL}#faq`, mainEntity: [QUESTION] },
      ],
    });
    await expectValidJsonLd(jsonLd);
  });

  it('an FAQPage page holds its questions itself', async () => {
    const jsonLd = pageJsonLd(page({ pageType: 'FAQPage', slug: 'faq', blocks: [FAQ] }), NO_SETTINGS, null);
    expect(jsonLd).toEqual({
      '@context': 'https://schema.org',
      '@graph': [
        {
          '@type': 'FAQPage',
          name: 'About us',
          datePublished: '2025-03-01T10:00:00.000Z',
          dateModified: '2025-03-02T11:00:00.000Z',
          mainEntity: [QUESTION],
        },
      ],
    });
    await expectValidJsonLd(jsonLd);
  });

  it('names and describes the page in plain text', () => {
    const [main] = pageJsonLd(
      page({ title: 'About `quire`', seo: { description: 'Who writes [it](https://example.com).' } }),
      NO_SETTINGS,
      null,
    )['@graph'] as Array<Record<string, unknown>>;
    expect(main).toMatchObject({ name: 'About quire', description: 'Who writes it.' });
  });

  it('takes the canonical URL when set, and leaves out what is unknown', () => {
    expect(
      pageJsonLd(page({ seo: { canonicalUrl: 'https://elsewhere.example/about' } }), NO_SETTINGS, null)['@graph'],
    ).toEqual([
      {
        '@type': 'AboutPage',
        '@id': 'https://elsewhere.example/about',
        url: 'https://elsewhere.example/about',
        name: 'About us',
        datePublished: '2025-03-01T10:00:00.000Z',
        dateModified: '2025-03-02T11:00:00.000Z',
      },
    ]);
    expect(pageJsonLd(page({ publishedAt: null }), NO_SETTINGS, null)['@graph']).toEqual([
      { '@type': 'AboutPage', name: 'About us', dateModified: '2025-03-02T11:00:00.000Z' },
    ]);
  });
});
