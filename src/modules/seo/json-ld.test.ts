import { describe, expect, it } from 'vitest';
import type { StoredBlock } from '@quire/blocks';
import { ADA, NO_SETTINGS, SETTINGS } from '../../../test/helpers/json-ld-fixtures.js';
import {
  breadcrumbNode,
  categoryCrumbs,
  faqNode,
  firstText,
  headline,
  idFor,
  personNode,
  publisherNode,
} from './json-ld.js';

describe('ids and texts', () => {
  it('hangs an @id off a known URL only, replacing a fragment it already has', () => {
    expect(idFor('https://blog.example.com/blog/a', 'article')).toBe('https://blog.example.com/blog/a#article');
    expect(idFor('https://blog.example.com/blog/a#top', 'faq')).toBe('https://blog.example.com/blog/a#faq');
    expect(idFor(null, 'article')).toBeUndefined();
  });

  it('takes the first text that is not blank', () => {
    expect(firstText(undefined, '', '  ', 'Title', 'Other')).toBe('Title');
    expect(firstText(null, undefined)).toBeUndefined();
  });

  it('keeps a headline of up to 110 characters, prefers one that fits, else cuts at a word', () => {
    const long = `${'word '.repeat(30)}end`; // 153 characters
    expect(headline('SEO title', 'Title')).toBe('SEO title');
    expect(headline('', 'Title')).toBe('Title');
    expect(headline(long, 'Title')).toBe('Title');
    const cut = headline(long)!;
    expect(cut).toBe(`${'word '.repeat(21)}word…`);
    expect([...cut].length).toBeLessThanOrEqual(110);
    expect(headline('x'.repeat(200))).toBe(`${'x'.repeat(109)}…`);
    expect(headline('é'.repeat(110))).toBe('é'.repeat(110));
    expect(headline(`${'a'.repeat(100)}, and more words here`)).toBe(`${'a'.repeat(100)}, and…`);
    expect(headline(`${'a'.repeat(105)}, bbbbbbbbbb`)).toBe(`${'a'.repeat(105)}…`);
  });

  it('reads a headline’s inline Markdown as plain text before measuring it', () => {
    expect(headline('Why `useEffect` runs *twice*')).toBe('Why useEffect runs twice');
    // 120 characters as written, 106 as read: it fits.
    const linked = `[${'a'.repeat(100)}](https://example.com/x) ends`;
    expect(headline(linked)).toBe(`${'a'.repeat(100)} ends`);
  });
});

describe('personNode', () => {
  it('carries the author, the person data and sameAs, with its URL and @id from the settings', () => {
    expect(personNode(ADA, SETTINGS)).toEqual({
      '@type': 'Person',
      '@id': 'https://blog.example.com/authors/ada#person',
      name: 'Ada Lovelace',
      url: 'https://blog.example.com/authors/ada',
      description: 'Wrote the first program.',
      image: 'https://cms.example/media/ada.png',
      sameAs: ['https://example.com/ada'],
      jobTitle: 'Analyst',
      worksFor: { '@type': 'Organization', name: 'Analytical Engines' },
      alumniOf: { '@type': 'EducationalOrganization', name: 'University of London' },
      award: 'Lovelace Medal',
      honorificPrefix: 'Countess',
      honorificSuffix: 'FRS',
      knowsAbout: ['engines', 'poetry'],
    });
  });

  it('describes the author with the bio as plain text, and names them as written', () => {
    const node = personNode({ ...ADA, displayName: 'Ada_Lovelace_', bio: 'Wrote **the first** program.' }, SETTINGS);
    expect(node).toMatchObject({ name: 'Ada_Lovelace_', description: 'Wrote the first program.' });
  });

  it('leaves out what is not known', () => {
    expect(
      personNode({ slug: 'x', displayName: 'X', bio: null, sameAs: [], person: null, avatarUrl: null }, NO_SETTINGS),
    ).toEqual({ '@type': 'Person', name: 'X' });
  });
});

describe('publisherNode', () => {
  it('is the publisher named in the settings, else the site, with the logo', () => {
    expect(publisherNode(SETTINGS, 'https://cms.example/media/logo.png')).toEqual({
      '@type': 'Organization',
      '@id': 'https://blog.example.com#organization',
      name: 'Engines Weekly',
      url: 'https://blog.example.com',
      logo: { '@type': 'ImageObject', url: 'https://cms.example/media/logo.png' },
    });
    expect(
      publisherNode({ ...SETTINGS, publisherName: 'Engines Ltd', publisherUrl: 'https://engines.example/' }, null),
    ).toEqual({
      '@type': 'Organization',
      '@id': 'https://engines.example/#organization',
      name: 'Engines Ltd',
      url: 'https://engines.example/',
    });
  });

  it('is none without a name, and has no URL or @id without one', () => {
    expect(publisherNode(NO_SETTINGS, 'https://cms.example/media/logo.png')).toBeNull();
    expect(publisherNode({ ...NO_SETTINGS, publisherName: 'Engines Ltd' }, null)).toEqual({
      '@type': 'Organization',
      name: 'Engines Ltd',
    });
  });
});

describe('breadcrumbNode', () => {
  const chain = [
    { slug: 'tech', name: 'Technology', path: 'tech' },
    { slug: 'web', name: 'Web', path: 'tech/web', breadcrumbsTitle: 'The Web' },
  ];

  it('lists the category path, each crumb at its URL from the category pattern ({path} or {slug})', () => {
    expect(categoryCrumbs(chain, SETTINGS)).toEqual([
      { name: 'Technology', url: 'https://blog.example.com/c/tech' },
      { name: 'The Web', url: 'https://blog.example.com/c/tech/web' },
    ]);
    expect(
      categoryCrumbs(chain, { ...SETTINGS, categoryUrlPattern: '/topics/{slug}' }).map((crumb) => crumb.url),
    ).toEqual(['https://blog.example.com/topics/tech', 'https://blog.example.com/topics/web']);
    expect(breadcrumbNode(categoryCrumbs(chain, SETTINGS), 'https://blog.example.com/c/tech/web')).toEqual({
      '@type': 'BreadcrumbList',
      '@id': 'https://blog.example.com/c/tech/web#breadcrumb',
      itemListElement: [
        { '@type': 'ListItem', position: 1, name: 'Technology', item: 'https://blog.example.com/c/tech' },
        { '@type': 'ListItem', position: 2, name: 'The Web', item: 'https://blog.example.com/c/tech/web' },
      ],
    });
  });

  it('is none while a crumb before the last has no URL, and no trail below two crumbs', () => {
    expect(breadcrumbNode(categoryCrumbs(chain, NO_SETTINGS), null)).toBeNull();
    expect(
      breadcrumbNode([...categoryCrumbs(chain.slice(0, 1), SETTINGS), { name: 'A post', url: null }], null),
    ).toEqual({
      '@type': 'BreadcrumbList',
      itemListElement: [
        { '@type': 'ListItem', position: 1, name: 'Technology', item: 'https://blog.example.com/c/tech' },
        { '@type': 'ListItem', position: 2, name: 'A post' },
      ],
    });
    expect(breadcrumbNode([{ name: 'Technology', url: 'https://blog.example.com/c/tech' }], null)).toBeNull();
  });

  it('names a crumb by its breadcrumbs title as plain text, else by the category name as written', () => {
    const marked = [
      { slug: 'py', name: '__init__ files', path: 'py' },
      { slug: 'web', name: 'Web', path: 'py/web', breadcrumbsTitle: 'The *Web*' },
    ];
    expect(categoryCrumbs(marked, SETTINGS).map((crumb) => crumb.name)).toEqual(['__init__ files', 'The Web']);
  });
});

describe('faqNode', () => {
  const blocks: StoredBlock[] = [
    { type: 'faq', items: [{ question: 'Why?', answer: 'Because.' }] },
    { type: 'paragraph', text: 'Between' },
    { type: 'faq', items: [{ question: 'How?', answer: 'Carefully.' }] },
  ];

  it('gathers the questions of every faq block in order', () => {
    expect(faqNode(blocks, 'https://blog.example.com/blog/a')).toEqual({
      '@type': 'FAQPage',
      '@id': 'https://blog.example.com/blog/a#faq',
      mainEntity: [
        { '@type': 'Question', name: 'Why?', acceptedAnswer: { '@type': 'Answer', text: 'Because.' } },
        { '@type': 'Question', name: 'How?', acceptedAnswer: { '@type': 'Answer', text: 'Carefully.' } },
      ],
    });
  });

  it('gives questions and answers as plain text', () => {
    const marked: StoredBlock[] = [
      {
        type: 'faq',
        items: [{ question: 'Is `npm ci` enough?', answer: 'See [the docs](https://example.com/docs) and `code`.' }],
      },
    ];
    expect(faqNode(marked, null)).toEqual({
      '@type': 'FAQPage',
      mainEntity: [
        {
          '@type': 'Question',
          name: 'Is npm ci enough?',
          acceptedAnswer: { '@type': 'Answer', text: 'See the docs and code.' },
        },
      ],
    });
  });

  it('is none without faq blocks', () => {
    expect(faqNode([{ type: 'paragraph', text: 'No questions' }], null)).toBeNull();
  });
});
