import { describe, expect, it } from 'vitest';
import { authorOf, sameAsOf } from './ghost-authors.js';

describe('sameAsOf', () => {
  it('makes full URLs of handles, keeps full URLs, and drops what is no URL', () => {
    expect(
      sameAsOf({
        website: 'javascript:alert(1)',
        facebook: 'pages/Bakery/123',
        twitter: 'https://twitter.com/bakery',
        mastodon: 'fosstodon.org/@baker',
        youtube: 'channel/UC123',
        linkedin: 'company/bakery',
        bluesky: '@baker.bsky.social',
        instagram: '',
        tiktok: null,
      }),
    ).toEqual([
      'https://www.facebook.com/pages/Bakery/123',
      'https://twitter.com/bakery',
      'https://bsky.app/profile/baker.bsky.social',
      'https://fosstodon.org/@baker',
      'https://www.youtube.com/channel/UC123',
      'https://www.linkedin.com/company/bakery',
    ]);
  });

  it('lists a profile once', () => {
    expect(sameAsOf({ website: 'https://x.com/baker', twitter: '@baker' })).toEqual(['https://x.com/baker']);
  });
});

describe('authorOf', () => {
  it('keeps the public profile only, text made storable', () => {
    expect(
      authorOf({ id: 'u1', name: 'Zoë\u0000 עברית', slug: 'zoe', email: 'z@example.com', password: 'hash', bio: '' }),
    ).toEqual({ type: 'author', sourceId: 'u1', slug: 'zoe', displayName: 'Zoë עברית', bio: null, sameAs: [] });
  });

  it('names an author without a name by the slug, and refuses a row without an id', () => {
    expect(authorOf({ id: 'u2', slug: 'anon' })?.displayName).toBe('anon');
    expect(authorOf({ name: 'Nobody' })).toBeNull();
  });
});
