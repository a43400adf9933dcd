import { describe, expect, it } from 'vitest';
import { bodyText, headingIdFrom, readingTimeMin, tocItems, wordCount, type BlockWrite } from '@quire/blocks';
import { assignHeadingIds, deriveBody } from './derive.js';

const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');

describe('readingTimeMin', () => {
  it('is ceil(words / 230) with a minimum of 1', () => {
    expect(readingTimeMin(0)).toBe(1);
    expect(readingTimeMin(1)).toBe(1);
    expect(readingTimeMin(230)).toBe(1);
    expect(readingTimeMin(231)).toBe(2);
    expect(readingTimeMin(460)).toBe(2);
    expect(readingTimeMin(461)).toBe(3);
  });

  it('counts words of a real body at the boundary', () => {
    expect(deriveBody([{ type: 'paragraph', text: words(230) }]).readingTimeMin).toBe(1);
    expect(deriveBody([{ type: 'paragraph', text: words(231) }]).readingTimeMin).toBe(2);
    expect(deriveBody([]).readingTimeMin).toBe(1);
  });
});

describe('wordCount', () => {
  it('counts whitespace-separated tokens', () => {
    expect(wordCount('')).toBe(0);
    expect(wordCount('   \n\t ')).toBe(0);
    expect(wordCount(' one  two\nthree\n\nfour ')).toBe(4);
    expect(wordCount('**bold** [link](https://x.y)')).toBe(2);
  });
});

describe('bodyText', () => {
  it('joins fields of a block with \\n and blocks with \\n\\n, in document order', () => {
    const blocks: BlockWrite[] = [
      { type: 'heading', level: 2, text: 'Intro' },
      { type: 'paragraph', text: 'Some *markdown* here.' },
      { type: 'list', style: 'bullet', items: ['one', 'two'] },
      { type: 'quote', text: 'To be.', attribution: 'Hamlet' },
      { type: 'callout', variant: 'info', title: 'Note', body: 'Careful.' },
      { type: 'image', mediaId: '00000000-0000-4000-8000-000000000001', alt: 'alt is not text', caption: 'A caption' },
      { type: 'video_embed', url: 'https://video.example/1', title: 'A video' },
      {
        type: 'faq',
        items: [
          { question: 'Q1?', answer: 'A1.' },
          { question: 'Q2?', answer: 'A2.' },
        ],
      },
      {
        type: 'cta',
        title: 'Join',
        body: 'Now.',
        linkUrl: 'https://x.example',
        linkLabel: 'Sign up',
        variant: 'default',
      },
      { type: 'key_takeaways', items: ['k1', 'k2'] },
    ];
    expect(bodyText(blocks)).toBe(
      [
        'Intro',
        'Some *markdown* here.',
        'one\ntwo',
        'To be.\nHamlet',
        'Note\nCareful.',
        'A caption',
        'A video',
        'Q1?\nA1.\nQ2?\nA2.',
        'Join\nNow.\nSign up',
        'k1\nk2',
      ].join('\n\n'),
    );
  });

  it('leaves no empty segment for blocks or fields that contribute nothing', () => {
    const blocks: BlockWrite[] = [
      { type: 'paragraph', text: 'first' },
      { type: 'code', language: 'js', code: 'let x = 1;' },
      { type: 'divider' },
      { type: 'tweet_embed', url: 'https://x.example/status/1' },
      { type: 'image', mediaId: '00000000-0000-4000-8000-000000000001', alt: 'only alt' },
      { type: 'quote', text: 'no attribution' },
      { type: 'paragraph', text: '' },
      { type: 'callout', variant: 'warning', body: 'body only' },
      { type: 'paragraph', text: 'last' },
    ];
    expect(bodyText(blocks)).toBe('first\n\nno attribution\n\nbody only\n\nlast');
  });
});

describe('heading ids', () => {
  it('kebab-cases the text exactly as contract §6 defines it', () => {
    expect(headingIdFrom('Café & Crème brûlée!')).toBe('cafe-creme-brulee');
    expect(headingIdFrom('  Hello,   World  ')).toBe('hello-world');
    expect(headingIdFrom('ÉTÉ 2024')).toBe('ete-2024');
    expect(headingIdFrom('snake_case and CamelCase')).toBe('snake-case-and-camelcase');
    expect(headingIdFrom('ﬁne')).toBe('fine');
    expect(headingIdFrom('!!!')).toBe('section');
    expect(headingIdFrom('日本語')).toBe('section');
  });

  it('appends -1, -2 … to repeats, the first free one, and keeps explicit ids', () => {
    const blocks = assignHeadingIds([
      { type: 'heading', level: 2, text: 'Setup' },
      { type: 'heading', level: 3, text: 'Setup' },
      { type: 'heading', level: 3, text: 'Setup' },
      { type: 'heading', level: 2, text: 'Other', id: 'custom' },
      { type: 'heading', level: 4, text: '???' },
      { type: 'heading', level: 4, text: '' },
    ]);
    expect(blocks.map((b) => (b.type === 'heading' ? b.id : null))).toEqual([
      'setup',
      'setup-1',
      'setup-2',
      'custom',
      'section',
      'section-1',
    ]);
  });

  it('never derives an id that an explicit id later in the body holds', () => {
    const blocks = assignHeadingIds([
      { type: 'heading', level: 2, text: 'Intro' },
      { type: 'heading', level: 2, text: 'Later', id: 'intro' },
    ]);
    expect(blocks.map((b) => (b.type === 'heading' ? b.id : null))).toEqual(['intro-1', 'intro']);
  });

  it('refuses two equal explicit ids with a 400 pointing at the second', () => {
    try {
      assignHeadingIds([
        { type: 'heading', level: 2, text: 'A', id: 'same' },
        { type: 'paragraph', text: 'x' },
        { type: 'heading', level: 2, text: 'B', id: 'same' },
      ]);
      expect.unreachable();
    } catch (error) {
      expect((error as { status: number }).status).toBe(400);
      expect((error as { details: { issues: Array<{ path: string }> } }).details.issues[0]!.path).toBe(
        '/bodyJson/2/id',
      );
    }
  });

  it('drops an image url from a write and keeps alt and caption', () => {
    const [image] = assignHeadingIds([
      { type: 'image', mediaId: '00000000-0000-4000-8000-000000000001', url: 'https://x', alt: 'a' },
    ]);
    expect(image).toEqual({ type: 'image', mediaId: '00000000-0000-4000-8000-000000000001', alt: 'a' });
  });
});

describe('tocItems', () => {
  it('lists every heading in order with its id', () => {
    const blocks = assignHeadingIds([
      { type: 'paragraph', text: 'x' },
      { type: 'heading', level: 2, text: 'One' },
      { type: 'heading', level: 3, text: 'Two', id: 'zwei' },
      { type: 'heading', level: 4, text: 'One' },
    ]);
    expect(tocItems(blocks)).toEqual([
      { level: 2, text: 'One', id: 'one' },
      { level: 3, text: 'Two', id: 'zwei' },
      { level: 4, text: 'One', id: 'one-1' },
    ]);
  });
});
