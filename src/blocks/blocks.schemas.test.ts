import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { toIssue, validatorCompiler } from '../http/validation.js';
import { BodyWrite } from './blocks.schemas.js';

const validate = validatorCompiler({
  schema: Type.Object({ bodyJson: BodyWrite }, { additionalProperties: false }),
  httpPart: 'body',
});

function issueOf(bodyJson: unknown[]) {
  const ok = validate({ bodyJson });
  if (ok) return null;
  return toIssue(validate.errors![0]!, 'body');
}

const paragraphs = (n: number) => Array.from({ length: n }, () => ({ type: 'paragraph', text: 'x' }));
const MEDIA = '00000000-0000-4000-8000-000000000001';

describe('block validation', () => {
  it('accepts every one of the 13 block types', () => {
    expect(
      issueOf([
        { type: 'paragraph', text: 'p' },
        { type: 'heading', level: 2, text: 'h' },
        { type: 'list', style: 'ordered', items: ['a'] },
        { type: 'image', mediaId: MEDIA, alt: 'a', caption: 'c' },
        { type: 'code', language: 'ts', code: 'x' },
        { type: 'quote', text: 'q', attribution: 'a' },
        { type: 'divider' },
        { type: 'callout', variant: 'success', title: 't', body: 'b' },
        { type: 'video_embed', url: 'https://v.example/1', title: 't' },
        { type: 'tweet_embed', url: 'https://x.example/1' },
        { type: 'faq', items: [{ question: 'q', answer: 'a' }] },
        { type: 'cta', title: 't', body: 'b', linkUrl: '/x', linkLabel: 'l', variant: 'outlined' },
        { type: 'key_takeaways', items: ['k'] },
      ]),
    ).toBeNull();
  });

  it('points at the block and field that break a rule', () => {
    expect(issueOf([...paragraphs(17), { type: 'key_takeaways', items: [] }])?.path).toBe('/bodyJson/17/items');
    expect(
      issueOf([{ type: 'faq', items: Array.from({ length: 51 }, () => ({ question: 'q', answer: 'a' })) }])?.path,
    ).toBe('/bodyJson/0/items');
    expect(issueOf([{ type: 'heading', level: 5, text: 'h' }])?.path).toBe('/bodyJson/0/level');
    expect(issueOf([{ type: 'callout', variant: 'danger', body: 'b' }])?.path).toBe('/bodyJson/0/variant');
    expect(issueOf([{ type: 'paragraph', text: 'x'.repeat(10_001) }])?.path).toBe('/bodyJson/0/text');
    expect(issueOf([{ type: 'paragraph', text: 'x', extra: 1 }])).toMatchObject({ path: '/bodyJson/0/extra' });
    expect(issueOf([{ type: 'image', mediaId: 'not-a-uuid' }])?.path).toBe('/bodyJson/0/mediaId');
    expect(issueOf([{ type: 'poem', text: 'x' }])?.path).toBe('/bodyJson/0/type');
    expect(issueOf([{ text: 'x' }])?.path).toBe('/bodyJson/0/type');
  });

  it('holds the exact limits: 10,000 characters, 1,000 blocks, faq 1–50, key_takeaways 1–10', () => {
    expect(issueOf([{ type: 'paragraph', text: 'x'.repeat(10_000) }])).toBeNull();
    expect(issueOf(paragraphs(1000))).toBeNull();
    expect(issueOf(paragraphs(1001))?.path).toBe('/bodyJson');
    expect(
      issueOf([{ type: 'faq', items: Array.from({ length: 50 }, () => ({ question: 'q', answer: 'a' })) }]),
    ).toBeNull();
    expect(issueOf([{ type: 'faq', items: [] }])?.path).toBe('/bodyJson/0/items');
    expect(issueOf([{ type: 'key_takeaways', items: Array.from({ length: 10 }, () => 'k') }])).toBeNull();
    expect(issueOf([{ type: 'key_takeaways', items: Array.from({ length: 11 }, () => 'k') }])?.path).toBe(
      '/bodyJson/0/items',
    );
  });

  it('accepts an image url in a write (thrown away later) but not other unknown fields', () => {
    expect(issueOf([{ type: 'image', mediaId: MEDIA, url: 'https://cdn.example/x.png' }])).toBeNull();
    expect(issueOf([{ type: 'image', mediaId: MEDIA, url: null }])).toBeNull();
  });
});
