import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempFiles, type TempFiles } from '../../../../../test/fixtures/imports/wordpress/wxr-files.js';
import { mediaLocator } from './media.js';
import type { WxrIndex } from './wxr-index.js';

const index = {
  title: 'Site',
  description: '',
  link: 'https://blog.example.com',
  baseSiteUrl: 'https://example.com',
  baseBlogUrl: 'https://blog.example.com',
  authors: new Map(),
  categories: new Map(),
  tags: new Map(),
  categoryByTermId: new Map(),
  attachments: new Map([
    [
      '7',
      {
        id: '7',
        url: 'https://example.com/wp-content/uploads/2019/05/photo.jpg',
        alt: 'Alt',
        caption: 'Cap',
        file: '2019/05/photo.jpg',
        parent: '0',
      },
    ],
  ]),
  attachmentsByParent: new Map(),
  entries: 0,
  skipped: new Map(),
  comments: 0,
  stats: { droppedChars: 0 },
} satisfies WxrIndex;

let files: TempFiles;
beforeEach(() => {
  files = tempFiles();
});
afterEach(() => files.remove());

describe('locating media', () => {
  it('takes a size suffix off, keys by the path under uploads, and adds the attachment alt text and caption', () => {
    const locate = mediaLocator(index, null).locate;
    expect(locate('https://example.com/wp-content/uploads/2019/05/photo-300x200.jpg')).toEqual({
      key: '2019/05/photo.jpg',
      origin: { kind: 'url', url: 'https://example.com/wp-content/uploads/2019/05/photo.jpg' },
      alt: 'Alt',
      caption: 'Cap',
    });
  });

  it('accepts every host alias of the site (www, the blog URL, a relative path, Jetpack’s image CDN), no other', () => {
    const locate = mediaLocator(index, null).locate;
    const key = (src: string) => locate(src)?.key ?? null;
    expect(key('http://www.example.com/wp-content/uploads/a%20b.png')).toBe('a b.png');
    expect(key('https://blog.example.com/wp-content/uploads/x-1024x768.webp?resize=1')).toBe('x.webp');
    expect(key('/wp-content/uploads/2020/rel.gif')).toBe('2020/rel.gif');
    expect(locate('https://i0.wp.com/example.com/wp-content/uploads/2019/05/photo-300x200.jpg?w=300')).toMatchObject({
      key: '2019/05/photo.jpg',
      origin: { kind: 'url', url: 'https://example.com/wp-content/uploads/2019/05/photo.jpg' },
    });
    expect(locate('https://cdn.other.net/wp-content/uploads/2019/05/photo.jpg')).toBeNull();
    expect(locate('https://example.com/images/logo.png')).toBeNull();
    expect(locate('data:image/png;base64,AAAA')).toBeNull();
    expect(locate('https://example.com/wp-content/uploads/../../wp-config.php')).toBeNull();
  });

  it('reads from the uploads folder when the original is there, else the size the body named, else the URL', () => {
    files.write('placeholder', '');
    mkdirSync(join(files.dir, '2019/05'), { recursive: true });
    files.write('2019/05/photo.jpg', 'jpeg');
    files.write('2019/05/only-150x150.png', 'png');
    const locate = mediaLocator(index, files.dir).locate;
    expect(locate('https://example.com/wp-content/uploads/2019/05/photo-300x200.jpg')?.origin).toEqual({
      kind: 'file',
      path: join(files.dir, '2019/05/photo.jpg'),
    });
    expect(locate('https://example.com/wp-content/uploads/2019/05/only-150x150.png')).toEqual({
      key: '2019/05/only.png',
      origin: { kind: 'file', path: join(files.dir, '2019/05/only-150x150.png') },
    });
    expect(locate('https://example.com/wp-content/uploads/2019/05/absent.png')?.origin).toEqual({
      kind: 'url',
      url: 'https://example.com/wp-content/uploads/2019/05/absent.png',
    });
  });
});
