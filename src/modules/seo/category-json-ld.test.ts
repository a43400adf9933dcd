import { describe, expect, it } from 'vitest';
import { NO_SETTINGS, SETTINGS } from '../../../test/helpers/json-ld-fixtures.js';
import { expectValidJsonLd } from '../../../test/helpers/json-ld.js';
import { categoryJsonLd } from './category-json-ld.js';

const chain = [
  { slug: 'food', name: 'Food', path: 'food' },
  { slug: 'bread', name: 'Bread', path: 'food/bread' },
];
const URL = 'https://blog.example.com/c/food/bread';

describe('categoryJsonLd', () => {
  it('is a CollectionPage pointing at the BreadcrumbList of its path', async () => {
    const jsonLd = categoryJsonLd({ name: 'Bread', description: 'Loaves.', chain }, SETTINGS);
    expect(jsonLd).toEqual({
      '@context': 'https://schema.org',
      '@graph': [
        {
          '@type': 'CollectionPage',
          '@id': URL,
          url: URL,
          name: 'Bread',
          description: 'Loaves.',
          breadcrumb: { '@id': `${URL}#breadcrumb` },
        },
        {
          '@type': 'BreadcrumbList',
          '@id': `${URL}#breadcrumb`,
          itemListElement: [
            { '@type': 'ListItem', position: 1, name: 'Food', item: 'https://blog.example.com/c/food' },
            { '@type': 'ListItem', position: 2, name: 'Bread', item: URL },
          ],
        },
      ],
    });
    await expectValidJsonLd(jsonLd);
  });

  it('without settings: no URL, no @id, no breadcrumb; the description as plain text', async () => {
    const jsonLd = categoryJsonLd({ name: 'Bread', description: 'Loaves, *crusty* ones.', chain }, NO_SETTINGS);
    expect(jsonLd['@graph']).toEqual([
      { '@type': 'CollectionPage', name: 'Bread', description: 'Loaves, crusty ones.' },
    ]);
    await expectValidJsonLd(jsonLd);
  });

  it('a root category has no trail of one', () => {
    expect(categoryJsonLd({ name: 'Food', description: null, chain: chain.slice(0, 1) }, SETTINGS)['@graph']).toEqual([
      {
        '@type': 'CollectionPage',
        '@id': 'https://blog.example.com/c/food',
        url: 'https://blog.example.com/c/food',
        name: 'Food',
      },
    ]);
  });
});
