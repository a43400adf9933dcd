import { describe, expect, it } from 'vitest';
import { lastSegment, readFields } from './fields.js';

describe('readFields', () => {
  it('reads tags and categories as lists or comma strings, category and categories together', () => {
    const fields = readFields({ tags: 'a, b,, a ', categories: ['News', 'Tech'], category: 'News' });
    expect(fields.tags).toEqual(['a', 'b']);
    expect(fields.categories).toEqual(['News', 'Tech']);
    expect(readFields({ category: 'Solo' }).categories).toEqual(['Solo']);
  });

  it('reads authors as a name, a list, or objects with a name and profile links', () => {
    expect(readFields({ author: 'Doe, Jane' }).authors).toEqual([{ name: 'Doe, Jane', sameAs: [] }]);
    expect(
      readFields({
        authors: ['Ada', { name: 'Grace', url: 'https://g.test', email: 'g@g.test', twitter: '@grace' }, { x: 1 }],
      }).authors,
    ).toEqual([
      { name: 'Ada', sameAs: [] },
      { name: 'Grace', sameAs: ['https://g.test'] },
    ]);
  });

  it('reads the featured image from each key the generators use, with its alt', () => {
    expect(readFields({ image: 'a.png', image_alt: 'A' }).image).toEqual({ src: 'a.png', alt: 'A' });
    expect(readFields({ image: { path: 'p.png', alt: 'P' } }).image).toEqual({ src: 'p.png', alt: 'P' });
    expect(readFields({ cover: { image: 'c.png', alt: 'C' } }).image).toEqual({ src: 'c.png', alt: 'C' });
    expect(readFields({ cover: 'c.png' }).image).toEqual({ src: 'c.png' });
    expect(readFields({ heroImage: 'h.png' }).image).toEqual({ src: 'h.png' });
    expect(readFields({ featured_image: 'f.png' }).image).toEqual({ src: 'f.png' });
    expect(readFields({ images: ['i.png', 'j.png'] }).image).toEqual({ src: 'i.png' });
    expect(readFields({}).image).toBeUndefined();
  });

  it('reads description, summary or excerpt, and each spelling of canonical', () => {
    expect(readFields({ summary: 'S', excerpt: 'E' }).description).toBe('S');
    expect(readFields({ excerpt: 'E' }).description).toBe('E');
    for (const key of ['canonical', 'canonicalURL', 'canonical_url'])
      expect(readFields({ [key]: 'https://c.test/x' }).canonicalUrl).toBe('https://c.test/x');
  });

  it('reads old paths from aliases, redirect_from, permalink and url, patterns left out', () => {
    const fields = readFields({
      aliases: ['/a/', 'relative', 'https://old.test/b.html?x=1'],
      redirect_from: '/c',
      permalink: '/:year/:title/',
    });
    expect(fields.oldPaths).toEqual(['/a/', '/relative', '/b.html', '/c']);
    expect(readFields({ url: '/posts/x/' }).oldPaths).toEqual(['/posts/x/']);
  });

  it('reads draft, published and the page markers', () => {
    expect(readFields({ draft: true }).draft).toBe(true);
    expect(readFields({ published: false }).draft).toBe(true);
    expect(readFields({ draft: false, published: true }).draft).toBe(false);
    expect(readFields({ type: 'page' }).page).toBe(true);
    expect(readFields({ layout: 'Page' }).page).toBe(true);
    expect(readFields({ layout: 'post' }).page).toBe(false);
  });

  it('lists the keys it has no field for', () => {
    expect(readFields({ title: 'T', weight: 1, lastmod: 'x', layout: 'post' }).unknownKeys).toEqual([
      'weight',
      'lastmod',
    ]);
  });

  it('takes a number written as a title as its text', () => {
    expect(readFields({ title: 1984, slug: 2024 })).toMatchObject({ title: '1984', slug: '2024' });
  });
});

describe('lastSegment', () => {
  it('gives the slug a permalink ends with', () => {
    expect(lastSegment('/blog/hello-world/')).toBe('hello-world');
    expect(lastSegment('/blog/hello.html')).toBe('hello');
    expect(lastSegment('/blog/:title/')).toBeUndefined();
    expect(lastSegment('/')).toBeUndefined();
  });
});
