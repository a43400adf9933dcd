import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exactPath, readRedirects } from './ghost-redirects.js';

const fixture = (name: string) =>
  fileURLToPath(new URL(`../../../../../test/fixtures/imports/ghost/${name}`, import.meta.url));

describe('exactPath', () => {
  it.each([
    ['/old/', '/old/'],
    ['^/old/$', '/old/'],
    ['^\\/old\\/$', '/old/'],
    ['^/old/?$', '/old/'],
    ['/feed.xml', '/feed.xml'],
    ['^/a\\.b-c_d~e/$', '/a.b-c_d~e/'],
  ])('%s is the path %s', (from, path) => {
    expect(exactPath(from)).toBe(path);
  });

  it.each(['^/tag/(.*)$', '/a/[0-9]+/', '/a|/b', '^/x/.*', 'relative/', '/a+/', '/a{2}/', '^/a\\d/$'])(
    '%s is a pattern',
    (from) => {
      expect(exactPath(from)).toBeNull();
    },
  );
});

describe('readRedirects', () => {
  it('reads redirects.yaml: 301 and 302 maps', async () => {
    expect(await readRedirects(fixture('redirects.yaml'))).toEqual({
      redirects: [
        { type: 'redirect', sourceId: '/old-about/', fromPath: '/old-about/', toPath: '/about/', statusCode: 301 },
        {
          type: 'redirect',
          sourceId: '/sale/',
          fromPath: '/sale/',
          toPath: 'https://shop.example.com/',
          statusCode: 302,
        },
      ],
      notes: [{ message: 'redirect from the pattern ^/category/(.+)/$ skipped: Quire redirects exact paths' }],
    });
  });

  it('refuses a file that is missing, not JSON, or of another shape, naming it', async () => {
    await expect(readRedirects(fixture('nowhere.json'))).rejects.toMatchObject({ message: /nowhere\.json cannot/ });
    await expect(readRedirects(fixture('malformed-export.txt'))).rejects.toMatchObject({
      message: /malformed-export\.txt is not a Ghost redirects file/,
    });
    await expect(readRedirects(fixture('redirects-bad.json'))).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: /redirects-bad\.json is not a Ghost redirects file: expected/,
    });
  });
});
