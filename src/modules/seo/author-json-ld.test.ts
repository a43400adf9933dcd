import { describe, expect, it } from 'vitest';
import { ADA, NO_SETTINGS, SETTINGS } from '../../../test/helpers/json-ld-fixtures.js';
import { expectValidJsonLd } from '../../../test/helpers/json-ld.js';
import { authorJsonLd, type AuthorProfileForLd } from './author-json-ld.js';
import { personNode } from './json-ld.js';

const URL = 'https://blog.example.com/authors/ada';
const author: AuthorProfileForLd = {
  ...ADA,
  seo: { description: 'Ada’s articles.' },
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-02-01T00:00:00.000Z',
};

describe('authorJsonLd', () => {
  it('is a ProfilePage whose mainEntity is the Person beside it', async () => {
    const jsonLd = authorJsonLd(author, SETTINGS);
    expect(jsonLd).toEqual({
      '@context': 'https://schema.org',
      '@graph': [
        {
          '@type': 'ProfilePage',
          '@id': URL,
          url: URL,
          name: 'Ada Lovelace',
          description: 'Ada’s articles.',
          dateCreated: '2025-01-01T00:00:00.000Z',
          dateModified: '2025-02-01T00:00:00.000Z',
          mainEntity: { '@id': `${URL}#person` },
        },
        personNode(ADA, SETTINGS),
      ],
    });
    expect(personNode(ADA, SETTINGS)['@id']).toBe(`${URL}#person`);
    await expectValidJsonLd(jsonLd);
  });

  it('is the Person alone when the author has no page URL', async () => {
    const jsonLd = authorJsonLd(author, NO_SETTINGS);
    expect(jsonLd['@graph']).toEqual([personNode(ADA, NO_SETTINGS)]);
    expect(authorJsonLd(author, { ...SETTINGS, authorUrlPattern: null })['@graph']).toEqual([
      personNode(ADA, NO_SETTINGS),
    ]);
    await expectValidJsonLd(jsonLd);
  });

  it('names and describes the profile page in plain text', () => {
    const [profile] = authorJsonLd(
      { ...author, seo: { title: 'Ada, *analyst*', description: 'Her `engine` notes.' } },
      SETTINGS,
    )['@graph'] as Array<Record<string, unknown>>;
    expect(profile).toMatchObject({ name: 'Ada, analyst', description: 'Her engine notes.' });
  });
});
