import { describe, expect, it } from 'vitest';
import { NO_SETTINGS as NO_SITE } from '../../../test/helpers/json-ld-fixtures.js';
import type { SiteSettings } from '../workspaces/site-settings.js';
import { renderFeed, type FeedSource } from './feeds.js';

const source = (settings: SiteSettings): FeedSource => ({
  settings,
  fallbackTitle: 'Engines Weekly',
  posts: [],
  links: {
    rss: 'https://cms.example/feeds/rss.xml',
    atom: 'https://cms.example/feeds/atom.xml',
    json: 'https://cms.example/feeds/feed.json',
  },
});

describe('renderFeed', () => {
  it('gives an RSS channel the site URL as its link, and its own address when the site has none', () => {
    expect(renderFeed('rss', source({ ...NO_SITE, siteUrl: 'https://engines.example' }))).toContain(
      '<link>https://engines.example/</link>',
    );
    const bare = renderFeed('rss', source(NO_SITE));
    expect(bare).toContain('<link>https://cms.example/feeds/rss.xml</link>');
    expect(bare).not.toContain('undefined');
  });
});
