import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GhostMedia } from './ghost-media.js';

const site = new GhostMedia(new URL('https://bakery.example.com/'), null);
const url = (path: string) => ({ kind: 'url', url: `https://bakery.example.com/${path}` });

describe('GhostMedia.locate', () => {
  it.each([
    '__GHOST_URL__/content/images/2024/01/x.jpg',
    '__GHOST_URL__/content/images/size/w600/2024/01/x.jpg',
    '__GHOST_URL__/content/images/size/h400/2024/01/x.jpg',
    '__GHOST_URL__/content/images/size/w600h400/2024/01/x.jpg',
    '__GHOST_URL__/content/images/size/w1000/format/webp/2024/01/x.jpg',
    'https://bakery.example.com/content/images/size/w300/2024/01/x.jpg?v=2#top',
    'https://BAKERY.example.com/content/images/2024/01/x.jpg',
    '//bakery.example.com/content/images/2024/01/x.jpg',
    '/content/images/2024/01/x.jpg',
  ])('names the original of %s', (src) => {
    expect(site.locate(src)).toEqual({ key: '2024/01/x.jpg', origin: url('content/images/2024/01/x.jpg') });
  });

  it('keys a file by its name decoded, and reads it by its name as written', () => {
    expect(site.locate('__GHOST_URL__/content/images/2024/caf%C3%A9%20%F0%9F%8D%B0.jpg')).toEqual({
      key: '2024/café 🍰.jpg',
      origin: url('content/images/2024/caf%C3%A9%20%F0%9F%8D%B0.jpg'),
    });
  });

  it('keys other files of the site by their path', () => {
    expect(site.locate('__GHOST_URL__/content/media/2024/clip.mp4')).toEqual({
      key: 'content/media/2024/clip.mp4',
      origin: url('content/media/2024/clip.mp4'),
    });
  });

  it.each([
    'https://images.unsplash.com/photo-1?w=2000',
    'https://cdn.example.org/content/images/x.jpg',
    'data:image/png;base64,AAAA',
    'javascript:alert(1)',
    '__GHOST_URL__/content/images/../../etc/passwd',
    '__GHOST_URL__/content/images/%2e%2e/%2e%2e/etc/passwd',
    '__GHOST_URL__/content/images/a%5C..%5Cb.jpg',
    '__GHOST_URL__',
    '',
  ])('reads nothing from %s', (src) => {
    expect(site.locate(src)).toBeNull();
  });

  it('reads a site in a subfolder from that subfolder only', () => {
    const blog = new GhostMedia(new URL('https://example.com/blog/'), null);
    expect(blog.locate('https://example.com/blog/content/images/size/w100/a.jpg')).toEqual({
      key: 'a.jpg',
      origin: { kind: 'url', url: 'https://example.com/blog/content/images/a.jpg' },
    });
    expect(blog.locate('__GHOST_URL__/content/images/a.jpg')?.origin).toEqual({
      kind: 'url',
      url: 'https://example.com/blog/content/images/a.jpg',
    });
    expect(blog.locate('https://example.com/shop/content/images/a.jpg')).toBeNull();
  });

  it('reads nothing when the export names no site and no zip holds the file', () => {
    expect(new GhostMedia(null, null).locate('__GHOST_URL__/content/images/a.jpg')).toBeNull();
  });

  describe('with an unpacked zip', () => {
    let root: string;
    beforeAll(async () => {
      root = await mkdtemp(join(tmpdir(), 'quire-ghost-media-'));
      await mkdir(join(root, 'content/images/2024'), { recursive: true });
      await writeFile(join(root, 'content/images/2024/here.jpg'), 'x');
    });
    afterAll(() => rm(root, { recursive: true, force: true }));

    it('reads a file the zip holds from the disk, any other from the site, or nothing without one', () => {
      const zipped = new GhostMedia(new URL('https://bakery.example.com'), root);
      expect(zipped.locate('__GHOST_URL__/content/images/size/w600/2024/here.jpg')).toEqual({
        key: '2024/here.jpg',
        origin: { kind: 'file', path: join(root, 'content/images/2024/here.jpg') },
      });
      expect(zipped.locate('__GHOST_URL__/content/images/2024/gone.jpg')?.origin.kind).toBe('url');
      expect(new GhostMedia(null, root).locate('__GHOST_URL__/content/images/2024/gone.jpg')).toBeNull();
      expect(new GhostMedia(null, root).locate('/content/images/2024')).toBeNull();
    });
  });
});
