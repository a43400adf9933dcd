import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  tempFiles,
  wxrDocument,
  wxrPost,
  WXR_NAMESPACES,
  type TempFiles,
} from '../../../../../test/fixtures/imports/wordpress/wxr-files.js';
import type { ImportEntry, ImportItem } from '../../import-source.js';
import { openWordPressSource } from './wordpress-source.js';
import { MAX_FIELD_CHARS, readWxr } from './wxr-reader.js';

let files: TempFiles;
beforeEach(() => {
  files = tempFiles();
});
afterEach(() => files.remove());

async function itemsOf(path: string): Promise<ImportItem[]> {
  const source = await openWordPressSource(path, {});
  const items: ImportItem[] = [];
  for await (const item of source.items()) items.push(item);
  return items;
}

describe('refusing a file', () => {
  it('refuses a DOCTYPE before reading anything, and never expands its entities', async () => {
    const path = files.write(
      'doctype.xml',
      `<?xml version="1.0"?>\n<!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n` +
        wxrDocument(wxrPost(1, 'Hi', '&xxe;')).replace(/^<\?xml[^>]*>\n/, ''),
    );
    await expect(openWordPressSource(path, {})).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/doctype\.xml declares a DOCTYPE/),
    });
    const records = readWxr(path);
    await expect(records.next()).rejects.toMatchObject({ status: 400 });
  });

  it('refuses an entity declaration even in a bare DOCTYPE', async () => {
    const path = files.write('entity.xml', `<!DOCTYPE rss [<!ENTITY a "b">]><rss ${WXR_NAMESPACES}><channel/></rss>`);
    await expect(openWordPressSource(path, {})).rejects.toThrow(/DOCTYPE/);
  });

  it('names the line and column of malformed XML', async () => {
    const path = files.write('broken.xml', wxrDocument(`<item><title>Open</titel></item>`));
    await expect(openWordPressSource(path, {})).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/broken\.xml is not well-formed XML: line 10, column \d+: /),
    });
  });

  it('refuses a file that is not a WordPress export', async () => {
    const html = files.write('page.xml', '<html><body>hi</body></html>');
    await expect(openWordPressSource(html, {})).rejects.toThrow(
      /page\.xml is not a WordPress export: its root is <html>/,
    );
    const feed = files.write(
      'feed.xml',
      '<rss version="2.0"><channel><title>A feed</title><item><title>x</title></item></channel></rss>',
    );
    await expect(openWordPressSource(feed, {})).rejects.toThrow(/feed\.xml is not a WordPress export/);
  });

  it('refuses a file it cannot read, naming it', async () => {
    await expect(openWordPressSource(`${files.dir}/missing.xml`, {})).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('missing.xml'),
    });
  });
});

describe('reading items', () => {
  it('fails an item with a field over 5 MB and reads the next', async () => {
    const big = 'a'.repeat(MAX_FIELD_CHARS + 10);
    const path = files.write('big.xml', wxrDocument(wxrPost(1, 'Huge', big) + wxrPost(2, 'Small', 'fine')));
    const items = await itemsOf(path);
    expect(items).toEqual([
      { type: 'author', sourceId: 'admin', slug: 'admin', displayName: 'admin', sameAs: [] },
      { type: 'failure', item: 'post 1 "Huge"', message: 'content:encoded is over 5 MB of text: not read' },
      expect.objectContaining({ type: 'post', sourceId: '2' }),
    ]);
  });

  it('drops NUL and the control characters XML refuses, and counts them', async () => {
    const path = files.write('nul.xml', wxrDocument(wxrPost(1, 'Nu\u0000ll\u000b', 'Te\u0000xt\u0001 here')));
    const source = await openWordPressSource(path, {});
    const items: ImportItem[] = [];
    for await (const item of source.items()) items.push(item);
    const post = items.find((item): item is ImportEntry => item.type === 'post')!;
    expect(post.title).toBe('Null');
    expect(post.body.convert({}).blocks).toEqual([{ type: 'paragraph', text: 'Text here' }]);
    expect(source.sourceNotes().map((note) => note.message)).toContain(
      '4 characters no database can store (NUL, control characters) dropped',
    );
  });

  it('reads invalid UTF-8 as replacement characters, not as a failure', async () => {
    const head = Buffer.from(wxrDocument(wxrPost(1, 'Bytes', 'MARK')).split('MARK')[0]!, 'utf8');
    const tail = Buffer.from(wxrDocument(wxrPost(1, 'Bytes', 'MARK')).split('MARK')[1]!, 'utf8');
    const path = files.write('bytes.xml', Buffer.concat([head, Buffer.from([0x61, 0xed, 0xa0, 0x80, 0x62]), tail]));
    const post = (await itemsOf(path)).find((item): item is ImportEntry => item.type === 'post')!;
    const text = (post.body.convert({}).blocks[0] as { text: string }).text;
    expect(text.startsWith('a') && text.endsWith('b')).toBe(true);
    expect(text).not.toMatch(/[\uD800-\uDFFF]/);
  });

  it('keeps a post with emoji, right-to-left text and combining marks as written', async () => {
    const title = 'שלום 👋🏽 مرحبا e\u0301';
    const path = files.write('utf8.xml', wxrDocument(wxrPost(1, title, `<p>${title}</p>`)));
    const post = (await itemsOf(path)).find((item): item is ImportEntry => item.type === 'post')!;
    expect(post.title).toBe(title);
    expect(post.body.convert({}).blocks).toEqual([{ type: 'paragraph', text: title }]);
  });

  it('does not mistake a comment meta for post meta', async () => {
    const comment =
      '<wp:comment><wp:comment_id>1</wp:comment_id><wp:commentmeta><wp:meta_key>_yoast_wpseo_title</wp:meta_key>' +
      '<wp:meta_value>Wrong</wp:meta_value></wp:commentmeta></wp:comment>';
    const path = files.write('comment.xml', wxrDocument(wxrPost(1, 'Post', 'Body', comment)));
    const post = (await itemsOf(path)).find((item): item is ImportEntry => item.type === 'post')!;
    expect(post.seo).toBeUndefined();
  });

  it('fails a post whose body cannot be read (nested past any stack) and reads the next', async () => {
    const deep = '<span>'.repeat(200_000) + 'deep';
    const path = files.write('deep.xml', wxrDocument(wxrPost(1, 'Deep', deep) + wxrPost(2, 'Next', 'ok')));
    const items = await itemsOf(path);
    expect(items[1]).toEqual({
      type: 'failure',
      item: 'post 1 "Deep"',
      message: expect.stringContaining('its content could not be read'),
    });
    expect(items[2]).toMatchObject({ type: 'post', sourceId: '2' });
  });

  it('names an item without an id by its line', async () => {
    const item = '<item><title>No id</title><wp:status>publish</wp:status><wp:post_type>post</wp:post_type></item>';
    const path = files.write('noid.xml', wxrDocument(item));
    const items = await itemsOf(path);
    expect(items).toEqual([
      { type: 'failure', item: 'post line 10 "No id"', message: 'it is published but has no date' },
    ]);
  });

  it('fails an item with a status WordPress does not have', async () => {
    const path = files.write(
      'status.xml',
      wxrDocument(wxrPost(1, 'Odd', 'x').replace('<wp:status>publish', '<wp:status>archived')),
    );
    expect((await itemsOf(path)).at(-1)).toEqual({
      type: 'failure',
      item: 'post 1 "Odd"',
      message: 'unknown status "archived"',
    });
  });
});
