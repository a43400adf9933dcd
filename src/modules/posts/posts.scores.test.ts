import { describe, expect, it } from 'vitest';
import { readabilityScore } from '../seo/readability.js';
import { scoreColumns } from './posts.scores.js';

const row = {
  title: 'A title of a fair length for search results',
  slug: 'a-title',
  excerpt: 'An excerpt.',
  seo: null,
  body_json: '[]',
  body_text: 'Short words read well. Long, polysyllabic vocabulary reads considerably less comfortably.',
  word_count: 11,
  featured_media_id: null,
};

describe('scoreColumns', () => {
  it('scores readability from the text', () => {
    expect(scoreColumns(row).readability_score).toBe(readabilityScore(row.body_text));
  });

  it('keeps the stored readability when the text is unchanged, and recomputes it when the text changed', () => {
    // 7 is not the text's score: seeing it back shows the stored value was kept.
    expect(readabilityScore(row.body_text)).not.toBe(7);
    expect(scoreColumns(row, { body_text: row.body_text, readability_score: 7 }).readability_score).toBe(7);
    expect(scoreColumns(row, { body_text: 'Another text.', readability_score: 7 }).readability_score).toBe(
      readabilityScore(row.body_text),
    );
  });
});
