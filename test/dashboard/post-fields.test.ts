import { describe, expect, it } from 'vitest';
import { changedFields, fieldsFor, fieldsOf, STUDIO_FIELDS } from '../../dashboard/src/studio/post-fields.js';
import { inWords, tooLong } from '../../dashboard/src/validation-words.js';
import type { Post } from '../../dashboard/src/types.js';

const stored = {
  title: 'Hello',
  slug: 'hello',
  excerpt: null,
  bodyJson: [{ type: 'paragraph', text: 'Hi' }],
  featuredMediaId: null,
  authorId: 'a1',
  categoryId: null,
  tags: [{ id: 't1' }],
  relatedPosts: [{ id: 'p2' }],
  seo: null,
} as unknown as Post;

describe("the studio's one list of post fields", () => {
  it('reads a stored post into the editor, each field empty by its kind when the post has none', () => {
    const fields = fieldsOf('post', stored);
    expect(fields).toMatchObject({ title: 'Hello', slug: 'hello', slugEdited: true, excerpt: '', authorId: 'a1' });
    expect(fields.tagIds).toEqual(['t1']);
    expect(fields.relatedPostIds).toEqual(['p2']);
    expect(fieldsOf('post', null)).toMatchObject({ title: '', slugEdited: false, tagIds: [], featuredMediaId: null });
  });

  it('sends only what changed, tags never in the body, and a page none of the post-only fields', () => {
    const before = fieldsOf('post', stored);
    expect(changedFields('post', before, before)).toEqual({});
    const edited = { ...before, title: 'Hello again', tagIds: ['t1', 't2'], excerpt: 'Short' };
    expect(changedFields('post', edited, before)).toEqual({ title: 'Hello again', excerpt: 'Short' });
    const page = { ...fieldsOf('page', null), title: 'About', excerpt: 'not a page field', authorId: 'a1' };
    expect(changedFields('page', page, 'create')).toEqual({ title: 'About' });
    expect(Object.keys(changedFields('page', page, 'all')).sort()).toEqual(['bodyJson', 'seo', 'title']);
  });

  it('shows the details panel the list in order, and names each field once', () => {
    expect(
      fieldsFor('post')
        .filter((field) => field.place === 'details')
        .map((field) => field.name),
    ).toEqual(['featuredMediaId', 'authorId', 'categoryId', 'tagIds', 'relatedPostIds']);
    const names = STUDIO_FIELDS.map((field) => field.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('says a limit before sending in the words the server’s refusal is put in', () => {
    expect(tooLong(300)).toBe(inWords('must NOT have more than 300 characters', 'title'));
  });
});
