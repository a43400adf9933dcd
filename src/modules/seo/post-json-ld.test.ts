import { describe, expect, it } from 'vitest';
import type { StoredBlock } from '@quire/blocks';
import { ADA, NO_SETTINGS, SETTINGS } from '../../../test/helpers/json-ld-fixtures.js';
import { expectValidJsonLd } from '../../../test/helpers/json-ld.js';
import { personNode } from './json-ld.js';
import { postJsonLd, type PostForLd } from './post-json-ld.js';

const LOGO = 'https://cms.example/media/logo.png';
const IMAGE = 'https://cms.example/media/cover.png';
const URL = 'https://blog.example.com/blog/keep-a-starter';

function post(fields: Partial<PostForLd> = {}): PostForLd {
  return {
    slug: 'keep-a-starter',
    title: 'Keep a starter alive',
    excerpt: 'Feeding and timing.',
    seo: null,
    schemaType: 'BlogPosting',
    publishedAt: '2025-03-01T10:00:00.000Z',
    createdAt: '2025-02-27T09:00:00.000Z',
    updatedAt: '2025-03-02T11:00:00.000Z',
    wordCount: 460,
    readingTimeMin: 2,
    isHowTo: false,
    canonicalUrl: null,
    blocks: [{ type: 'paragraph', text: 'Flour and water.' }],
    structuredData: null,
    author: ADA,
    categoryChain: [
      { slug: 'food', name: 'Food', path: 'food' },
      { slug: 'bread', name: 'Bread', path: 'food/bread' },
    ],
    imageUrl: IMAGE,
    tagNames: ['Baking', 'Sourdough'],
    ...fields,
  };
}

const nodes = (jsonLd: Record<string, unknown>) => jsonLd['@graph'] as Array<Record<string, unknown>>;

describe('postJsonLd', () => {
  it('builds the article, its breadcrumb and its FAQ from the post and the site settings', async () => {
    const blocks = [
      { type: 'paragraph' as const, text: 'Flour and water.' },
      { type: 'faq' as const, items: [{ question: 'How often?', answer: 'Daily.' }] },
    ];
    const jsonLd = postJsonLd(
      post({ blocks, seo: { title: 'Starter care', description: 'How to keep it.' } }),
      SETTINGS,
      LOGO,
    );
    expect(jsonLd).toEqual({
      '@context': 'https://schema.org',
      '@graph': [
        {
          '@type': 'BlogPosting',
          '@id': `${URL}#article`,
          headline: 'Starter care',
          description: 'How to keep it.',
          url: URL,
          datePublished: '2025-03-01T10:00:00.000Z',
          dateCreated: '2025-02-27T09:00:00.000Z',
          dateModified: '2025-03-02T11:00:00.000Z',
          author: personNode(ADA, SETTINGS),
          publisher: {
            '@type': 'Organization',
            '@id': 'https://blog.example.com#organization',
            name: 'Engines Weekly',
            url: 'https://blog.example.com',
            logo: { '@type': 'ImageObject', url: LOGO },
          },
          image: IMAGE,
          mainEntityOfPage: { '@type': 'WebPage', '@id': URL, breadcrumb: { '@id': `${URL}#breadcrumb` } },
          wordCount: 460,
          timeRequired: 'PT2M',
          keywords: 'Baking, Sourdough',
          articleSection: 'Bread',
        },
        {
          '@type': 'BreadcrumbList',
          '@id': `${URL}#breadcrumb`,
          itemListElement: [
            { '@type': 'ListItem', position: 1, name: 'Food', item: 'https://blog.example.com/c/food' },
            { '@type': 'ListItem', position: 2, name: 'Bread', item: 'https://blog.example.com/c/food/bread' },
            { '@type': 'ListItem', position: 3, name: 'Keep a starter alive', item: URL },
          ],
        },
        {
          '@type': 'FAQPage',
          '@id': `${URL}#faq`,
          mainEntity: [
            { '@type': 'Question', name: 'How often?', acceptedAnswer: { '@type': 'Answer', text: 'Daily.' } },
          ],
        },
      ],
    });
    await expectValidJsonLd(jsonLd);
  });

  it('invents nothing without site settings: no URL, @id, publisher or BreadcrumbList', async () => {
    const jsonLd = postJsonLd(post({ publishedAt: null, imageUrl: null, tagNames: [] }), NO_SETTINGS, null);
    expect(jsonLd).toEqual({
      '@context': 'https://schema.org',
      '@graph': [
        {
          '@type': 'BlogPosting',
          headline: 'Keep a starter alive',
          description: 'Feeding and timing.',
          dateCreated: '2025-02-27T09:00:00.000Z',
          dateModified: '2025-03-02T11:00:00.000Z',
          author: personNode(ADA, NO_SETTINGS),
          wordCount: 460,
          timeRequired: 'PT2M',
          articleSection: 'Bread',
        },
      ],
    });
    expect(personNode(ADA, NO_SETTINGS)).not.toHaveProperty('url');
    await expectValidJsonLd(jsonLd);
  });

  it('keeps the trail when only the post’s own URL is unknown: the last crumb needs none', async () => {
    const jsonLd = postJsonLd(post(), { ...SETTINGS, postUrlPattern: null }, null);
    expect(nodes(jsonLd)[1]).toEqual({
      '@type': 'BreadcrumbList',
      itemListElement: [
        { '@type': 'ListItem', position: 1, name: 'Food', item: 'https://blog.example.com/c/food' },
        { '@type': 'ListItem', position: 2, name: 'Bread', item: 'https://blog.example.com/c/food/bread' },
        { '@type': 'ListItem', position: 3, name: 'Keep a starter alive' },
      ],
    });
    await expectValidJsonLd(jsonLd);
  });

  it('writes every text built from the post’s prose as plain text', async () => {
    const md = (what: string) => `**${what}**, see [the docs](https://example.com/docs) and \`code\``;
    const plain = (what: string) => `${what}, see the docs and code`;
    const blocks: StoredBlock[] = [
      { type: 'heading', level: 2, text: md('Mix'), id: 'mix' },
      { type: 'paragraph', text: md('Stir') },
      { type: 'list', style: 'bullet', items: [md('Slowly')] },
      { type: 'faq', items: [{ question: md('How often'), answer: md('Daily') }] },
    ];
    const marked = post({
      title: md('Title'),
      excerpt: md('Excerpt'),
      isHowTo: true,
      blocks,
      author: { ...ADA, bio: md('Bio') },
    });
    for (const [fields, expected] of [
      [{}, { headline: plain('Title'), description: plain('Excerpt') }],
      [
        { seo: { title: md('SEO title'), description: md('SEO description'), breadcrumbsTitle: md('Crumb') } },
        { headline: plain('SEO title'), description: plain('SEO description') },
      ],
    ] as const) {
      const jsonLd = postJsonLd({ ...marked, ...fields }, SETTINGS, null);
      const [article, breadcrumb, faq, howTo] = nodes(jsonLd);
      expect(article).toMatchObject({ ...expected, author: { description: plain('Bio') } });
      expect((breadcrumb!.itemListElement as Array<{ name: string }>).at(-1)!.name).toBe(
        'seo' in fields ? plain('Crumb') : plain('Title'),
      );
      expect(faq!.mainEntity).toEqual([
        { '@type': 'Question', name: plain('How often'), acceptedAnswer: { '@type': 'Answer', text: plain('Daily') } },
      ]);
      expect(howTo).toMatchObject({
        name: plain('Title'),
        description: expected.description,
        step: [{ name: plain('Mix'), text: `${plain('Stir')}\n${plain('Slowly')}` }],
      });
      // Nothing of the Markdown is left anywhere in the graph.
      expect(JSON.stringify(jsonLd)).not.toMatch(/\*\*|`|\]\(/);
      await expectValidJsonLd(jsonLd);
    }
  });

  it('takes the post’s canonical URL over the pattern, and its breadcrumbs title for its crumb', () => {
    const [article, breadcrumb] = nodes(
      postJsonLd(
        post({ canonicalUrl: 'https://elsewhere.example/a', seo: { breadcrumbsTitle: 'Starter' } }),
        SETTINGS,
        null,
      ),
    );
    expect(article).toMatchObject({ '@id': 'https://elsewhere.example/a#article', url: 'https://elsewhere.example/a' });
    expect((breadcrumb!.itemListElement as unknown[]).at(-1)).toEqual({
      '@type': 'ListItem',
      position: 3,
      name: 'Starter',
      item: 'https://elsewhere.example/a',
    });
    expect(
      nodes(postJsonLd(post({ seo: { canonicalUrl: 'https://elsewhere.example/b' } }), NO_SETTINGS, null))[0],
    ).toMatchObject({ url: 'https://elsewhere.example/b' });
  });

  it('uses the schemaType, cuts a long title to a 110-character headline, and has no breadcrumb without a category', async () => {
    const title = `${'Sourdough '.repeat(15)}forever`;
    const jsonLd = postJsonLd(
      post({ schemaType: 'NewsArticle', title, categoryChain: [], author: null }),
      SETTINGS,
      null,
    );
    const graph = nodes(jsonLd);
    expect(graph).toHaveLength(1);
    expect(graph[0]).toMatchObject({
      '@type': 'NewsArticle',
      headline: `${'Sourdough '.repeat(10)}Sourdough…`,
      mainEntityOfPage: { '@type': 'WebPage', '@id': URL },
    });
    expect(graph[0]).not.toHaveProperty('articleSection');
    expect(graph[0]).not.toHaveProperty('author');
    await expectValidJsonLd(jsonLd);
  });

  it('adds a HowTo with steps when isHowTo, and none when the body has no steps', async () => {
    const blocks = [{ type: 'list' as const, style: 'ordered' as const, items: ['Feed it', 'Wait'] }];
    const jsonLd = postJsonLd(post({ isHowTo: true, blocks }), SETTINGS, null);
    expect(nodes(jsonLd).at(-1)).toEqual({
      '@type': 'HowTo',
      '@id': `${URL}#howto`,
      name: 'Keep a starter alive',
      description: 'Feeding and timing.',
      image: IMAGE,
      step: [
        { '@type': 'HowToStep', position: 1, name: 'Feed it', text: 'Feed it' },
        { '@type': 'HowToStep', position: 2, name: 'Wait', text: 'Wait' },
      ],
    });
    await expectValidJsonLd(jsonLd);
    expect(nodes(postJsonLd(post({ isHowTo: true }), SETTINGS, null)).map((node) => node['@type'])).toEqual([
      'BlogPosting',
      'BreadcrumbList',
    ]);
  });

  it('appends the client’s structuredData after Quire’s nodes', async () => {
    const event = {
      '@type': 'Event',
      name: 'Bake-off',
      startDate: '2025-05-01',
      location: { '@type': 'Place', name: 'Hall' },
    };
    const jsonLd = postJsonLd(post({ structuredData: { '@context': 'https://schema.org', ...event } }), SETTINGS, null);
    expect(nodes(jsonLd).map((node) => node['@type'])).toEqual(['BlogPosting', 'BreadcrumbList', 'Event']);
    expect(nodes(jsonLd).at(-1)).toEqual(event);
    await expectValidJsonLd(jsonLd);
  });
});
