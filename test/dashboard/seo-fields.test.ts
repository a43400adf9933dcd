import { describe, expect, it } from 'vitest';
import { settleSeo, withSeoValue } from '../../dashboard/src/seo/seo-fields.js';

describe('the studio edits seo without sending empty values', () => {
  it('sets and clears nested fields, dropping an emptied group and an emptied object', () => {
    let seo = withSeoValue(null, ['og', 'title'], 'Shared');
    expect(seo).toEqual({ og: { title: 'Shared' } });
    seo = withSeoValue(seo, ['robots', 'index'], false);
    expect(seo).toEqual({ og: { title: 'Shared' }, robots: { index: false } });
    seo = withSeoValue(seo, ['og', 'title'], '');
    expect(seo).toEqual({ robots: { index: false } });
    expect(withSeoValue(seo, ['robots', 'index'], undefined)).toBeNull();
    expect(withSeoValue({ title: 'T' }, ['secondaryKeywords'], [])).toEqual({ title: 'T' });
  });

  it('hands back the stored copy itself when an edit is undone, whatever its empty parts or key order', () => {
    const stored = { title: 'T', og: {}, twitter: { card: 'summary' } };
    const typed = withSeoValue(stored, ['og', 'description'], 'x');
    expect(settleSeo(typed, stored)).toBe(typed);
    const undone = withSeoValue(typed, ['og', 'description'], '');
    expect(undone).toEqual({ title: 'T', twitter: { card: 'summary' } });
    expect(settleSeo(undone, stored)).toBe(stored);
    const reordered = withSeoValue(withSeoValue(stored, ['title'], ''), ['title'], 'T');
    expect(Object.keys(reordered!)).toEqual(['og', 'twitter', 'title']);
    expect(settleSeo(reordered, stored)).toBe(stored);
    expect(settleSeo(withSeoValue({ title: 'x' }, ['title'], ''), {})).toEqual({});
    expect(settleSeo(withSeoValue({ title: 'x' }, ['title'], ''), null)).toBeNull();
  });

  it('keeps false and 0, which say something', () => {
    const seo = withSeoValue(withSeoValue(null, ['robots', 'snippet'], false), ['robots', 'maxSnippet'], 0);
    expect(seo).toEqual({ robots: { snippet: false, maxSnippet: 0 } });
    expect(settleSeo(seo, null)).toBe(seo);
  });
});
