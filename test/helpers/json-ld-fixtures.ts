import type { AuthorForLd } from '../../src/modules/seo/json-ld.js';
import type { SiteSettings } from '../../src/modules/workspaces/site-settings.js';

/** Site settings and an author for the JSON-LD unit tests (src/modules/seo/*.test.ts). */

export const NO_SETTINGS: SiteSettings = {
  siteName: null,
  siteUrl: null,
  logoMediaId: null,
  publisherName: null,
  publisherUrl: null,
  postUrlPattern: null,
  pageUrlPattern: null,
  authorUrlPattern: null,
  categoryUrlPattern: null,
  previewUrlPattern: null,
};

export const SETTINGS: SiteSettings = {
  ...NO_SETTINGS,
  siteName: 'Engines Weekly',
  siteUrl: 'https://blog.example.com',
  postUrlPattern: '/blog/{slug}',
  pageUrlPattern: '/{slug}',
  authorUrlPattern: '/authors/{slug}',
  categoryUrlPattern: '/c/{path}',
};

export const ADA: AuthorForLd = {
  slug: 'ada',
  displayName: 'Ada Lovelace',
  bio: 'Wrote the first program.',
  sameAs: ['https://example.com/ada'],
  person: {
    jobTitle: 'Analyst',
    worksFor: 'Analytical Engines',
    alumniOf: 'University of London',
    award: 'Lovelace Medal',
    honorificPrefix: 'Countess',
    honorificSuffix: 'FRS',
    knowsAbout: ['engines', 'poetry'],
  },
  avatarUrl: 'https://cms.example/media/ada.png',
};
