import { describe, expect, it } from 'vitest';
import { serializedStrings } from './php-serialized.js';
import { seoOf } from './seo.js';
import { expandSnippet, type SnippetValues } from './seo-variables.js';

const values: SnippetValues = {
  title: 'Post',
  siteName: 'Site',
  siteDescription: 'Tagline',
  excerpt: 'Short',
  category: 'News, Local',
  primaryCategory: 'News',
  tags: 'a, b',
  author: 'Ann',
  focusKeyword: 'kw',
  date: 'May 1, 2019',
  currentYear: '2031',
};

describe('snippet variables', () => {
  it('expands Yoast’s and Rank Math’s variables', () => {
    expect(expandSnippet('%%title%% %%sep%% %%sitename%% %%sep%% %%sitedesc%%', values)).toBe('Post – Site – Tagline');
    expect(expandSnippet('%%primary_category%%: %%excerpt%% (%%date%%, %%currentyear%%) %%name%%', values)).toBe(
      'News: Short (May 1, 2019, 2031) Ann',
    );
    expect(expandSnippet('%title% %sep% %sitename% in %category% %focuskw%', values)).toBe(
      'Post – Site in News, Local kw',
    );
  });

  it('strips unknown variables, collapses white space and trims dangling separators', () => {
    expect(expandSnippet('  %%title%%   %%page%% %%sep%% %%cf_custom%%  ', values)).toBe('Post');
    expect(expandSnippet('%%sep%% %%title%% %%sep%% %%sep%% %%sitename%%', values)).toBe('Post – Site');
    expect(expandSnippet('Well-known | %title%', values)).toBe('Well-known | Post');
  });
});

describe('SEO fields', () => {
  const none = () => null;
  it('cuts titles to 300 characters and descriptions to 1,000', () => {
    const seo = seoOf(
      new Map([
        ['_yoast_wpseo_title', 'x'.repeat(400)],
        ['_yoast_wpseo_metadesc', 'y'.repeat(1200)],
      ]),
      values,
      none,
    );
    expect(seo?.title).toHaveLength(300);
    expect(seo?.description).toHaveLength(1000);
  });

  it('reads Yoast’s index explicitly set, secondary keywords, and nothing when no field is set', () => {
    expect(
      seoOf(
        new Map([
          ['_yoast_wpseo_meta-robots-noindex', '2'],
          ['_yoast_wpseo_focuskw', 'main'],
          ['_yoast_wpseo_focuskeywords', '[{"keyword":"second","score":"good"},{"keyword":"third"}]'],
        ]),
        values,
        none,
      ),
    ).toEqual({ focusKeyword: 'main', secondaryKeywords: ['second', 'third'], robots: { index: true } });
    expect(seoOf(new Map([['_edit_last', '1']]), values, none)).toBeUndefined();
  });

  it('prefers Yoast where both plugins set a field', () => {
    const seo = seoOf(
      new Map([
        ['rank_math_title', 'Rank'],
        ['_yoast_wpseo_title', 'Yoast'],
        ['rank_math_description', 'From Rank Math'],
      ]),
      values,
      none,
    );
    expect(seo).toEqual({ title: 'Yoast', description: 'From Rank Math' });
  });
});

describe('PHP-serialized strings', () => {
  it('reads an array of strings, byte lengths in UTF-8', () => {
    expect(serializedStrings('a:2:{i:0;s:7:"noindex";i:1;s:8:"nofollow";}')).toEqual(['noindex', 'nofollow']);
    expect(serializedStrings('a:1:{s:3:"key";s:5:"café";}')).toEqual(['café']);
    // A length in characters, as a hand-written value may have it, is no string PHP wrote.
    expect(serializedStrings('a:1:{s:3:"key";s:4:"café";}')).toEqual([]);
  });

  it('gives what it read before anything it does not understand, and never throws', () => {
    expect(serializedStrings('a:2:{i:0;s:7:"noindex";i:1;O:8:"stdClass":0:{}}')).toEqual(['noindex']);
    expect(serializedStrings('a:1:{i:0;s:99:"short";}')).toEqual([]);
    expect(serializedStrings('')).toEqual([]);
    expect(serializedStrings('noindex')).toEqual([]);
    expect(serializedStrings('a:1:{i:0;' + 'a:1:{i:0;'.repeat(50) + 's:1:"x";')).toEqual([]);
  });
});
