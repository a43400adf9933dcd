import { createReadStream } from 'node:fs';
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { AppError, badRequest } from '../../../../errors.js';
import { storable } from './storable.js';

/*
 * A WordPress export (WXR) read as a stream of records: the channel's own fields, each author, term and item as it
 * completes. Elements are told apart by namespace URI, never by prefix (exports differ in their prefixes and in the
 * version in the wp namespace). Only the text of the fields a record keeps is gathered, each bounded, so memory
 * stays flat whatever the file's size.
 */

/** A field's text beyond this is not gathered: its item fails instead of holding the process's memory. */
export const MAX_FIELD_CHARS = 5 * 1024 * 1024;
/** An item's fields together (its body, its metadata) beyond this fail the item likewise. */
export const MAX_ITEM_CHARS = 16 * 1024 * 1024;

/**
 * A copy of `text` that holds on to nothing else. The parser's texts are slices of the chunk they were read from,
 * and V8 keeps a whole chunk alive for the sake of any slice of it: a field kept (an attachment's URL, an entry's
 * id in the runner's maps) would keep the file's chunks in memory one by one.
 */
const detached = (text: string) => (text.length < 13 ? text : Buffer.from(text, 'utf8').toString('utf8'));

type Space = 'wp' | 'content' | 'excerpt' | 'dc' | '' | 'other';

function spaceOf(uri: string): Space {
  if (uri === '') return '';
  if (uri === 'http://purl.org/rss/1.0/modules/content/') return 'content';
  if (uri === 'http://purl.org/dc/elements/1.1/') return 'dc';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'other';
  }
  // http://wordpress.org/export/1.2/ and http://wordpress.org/export/1.2/excerpt/, any version.
  const parts = url.pathname.split('/').filter(Boolean);
  if (url.hostname !== 'wordpress.org' || parts[0] !== 'export' || !/^\d+\.\d+$/.test(parts[1] ?? '')) return 'other';
  if (parts.length === 2) return 'wp';
  return parts.length === 3 && parts[2] === 'excerpt' ? 'excerpt' : 'other';
}

/** An element's name as the records know it: `wp:post_id`, `content:encoded`, `title`. */
function nameOf(tag: SaxesTagNS): string {
  const space = spaceOf(tag.uri);
  return space === '' ? tag.local : `${space}:${tag.local}`;
}

export interface WxrTermRef {
  domain: string;
  nicename: string;
  name: string;
}

export interface WxrItem {
  /** The item's own fields by name (`title`, `wp:post_id`, `content:encoded`…): the first of each. */
  fields: Map<string, string>;
  /** Its `<category domain nicename>` elements. */
  terms: WxrTermRef[];
  /** Its post meta, in order (a key may repeat: `_wp_old_slug`). */
  meta: Array<[key: string, value: string]>;
  comments: number;
  /** The field whose text was over its bound, when one was. */
  oversized?: string;
  /** Where the item starts in the file, to name it when it has no id. */
  line: number;
}

export type WxrRecord =
  | { kind: 'channel'; name: string; value: string }
  | { kind: 'author'; fields: Map<string, string> }
  | { kind: 'term'; element: 'wp:category' | 'wp:tag' | 'wp:term'; fields: Map<string, string> }
  | { kind: 'item'; item: WxrItem };

interface Reading {
  /** The element path from the root: `rss`, `channel`, `item`, `wp:postmeta`… */
  path: string[];
  /** The text being gathered, when the open element's text is kept. */
  text: string[] | null;
  /** The depth of the element whose text is gathered. */
  textDepth: number;
  textChars: number;
  overflow: boolean;
  record: { fields: Map<string, string> } | null;
  item: WxrItem | null;
  itemChars: number;
  metaKey: string | null;
  metaValue: string | null;
  term: { domain: string; nicename: string } | null;
  sawChannel: boolean;
  sawWp: boolean;
}

export interface WxrReadStats {
  /** Characters dropped because XML or a database cannot hold them. */
  droppedChars: number;
}

/**
 * The records of the export at `file`, in document order. Throws `badRequest` naming the file when it cannot be
 * read, declares a DOCTYPE (entities are never expanded), is not well-formed (with the line and column), or is not
 * a WordPress export.
 */
export async function* readWxr(file: string, stats: WxrReadStats = { droppedChars: 0 }): AsyncGenerator<WxrRecord> {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const out: WxrRecord[] = [];
  const state: Reading = {
    path: [],
    text: null,
    textDepth: 0,
    textChars: 0,
    overflow: false,
    record: null,
    item: null,
    itemChars: 0,
    metaKey: null,
    metaValue: null,
    term: null,
    sawChannel: false,
    sawWp: false,
  };

  parser.on('doctype', () => {
    throw badRequest(`${file} declares a DOCTYPE, which a WordPress export never has: refused (entities are not read)`);
  });
  const gather = (chunk: string) => {
    if (state.text === null || state.overflow) return;
    state.textChars += chunk.length;
    if (state.textChars > MAX_FIELD_CHARS) {
      state.overflow = true;
      state.text = [];
      return;
    }
    state.text.push(chunk);
  };
  parser.on('text', gather);
  parser.on('cdata', gather);
  parser.on('opentag', (tag) => {
    const name = nameOf(tag as SaxesTagNS);
    const depth = state.path.length;
    const parent = state.path[depth - 1];
    state.path.push(name);
    if (name.startsWith('wp:')) state.sawWp = true;
    if (depth === 0 && name !== 'rss') throw badRequest(`${file} is not a WordPress export: its root is <${tag.name}>`);
    if (depth === 1 && name === 'channel') state.sawChannel = true;
    if (parent === 'channel') {
      if (name === 'item') {
        state.item = { fields: new Map(), terms: [], meta: [], comments: 0, line: parser.line };
        state.itemChars = 0;
      } else if (name === 'wp:author' || name === 'wp:category' || name === 'wp:tag' || name === 'wp:term') {
        state.record = { fields: new Map() };
      } else startText();
      return;
    }
    const item = state.item;
    if (parent === 'item' && item !== null) {
      if (name === 'wp:comment') item.comments += 1;
      else if (name === 'wp:postmeta') {
        state.metaKey = null;
        state.metaValue = null;
      } else {
        if (name === 'category') {
          const attr = (local: string) => {
            const found = Object.values((tag as SaxesTagNS).attributes).find((a) => a.local === local && a.uri === '');
            return detached(found?.value ?? '');
          };
          state.term = { domain: attr('domain'), nicename: attr('nicename') };
        }
        startText();
      }
      return;
    }
    if (parent === 'wp:postmeta' && item !== null) return startText();
    if (state.record !== null && depth === 3) startText();
  });
  parser.on('closetag', () => {
    const name = state.path.pop()!;
    const parent = state.path[state.path.length - 1];
    const text = endText(name);
    if (parent === 'channel') {
      if (name === 'item' && state.item !== null) {
        out.push({ kind: 'item', item: state.item });
        state.item = null;
      } else if (state.record !== null) {
        if (name === 'wp:author') out.push({ kind: 'author', fields: state.record.fields });
        else if (name === 'wp:category' || name === 'wp:tag' || name === 'wp:term')
          out.push({ kind: 'term', element: name, fields: state.record.fields });
        state.record = null;
      } else if (text !== null) out.push({ kind: 'channel', name, value: text });
      return;
    }
    const item = state.item;
    if (item !== null && parent === 'item') {
      if (name === 'wp:postmeta') {
        if (state.metaKey !== null) item.meta.push([state.metaKey, state.metaValue ?? '']);
      } else if (name === 'category' && state.term !== null) {
        item.terms.push({ ...state.term, name: text ?? '' });
        state.term = null;
      } else if (text !== null && !item.fields.has(name)) item.fields.set(name, text);
      return;
    }
    if (item !== null && parent === 'wp:postmeta') {
      if (name === 'wp:meta_key') state.metaKey = text ?? '';
      else if (name === 'wp:meta_value') state.metaValue = text ?? '';
      return;
    }
    if (state.record !== null && text !== null && !state.record.fields.has(name)) state.record.fields.set(name, text);
  });

  function startText(): void {
    state.text = [];
    state.textDepth = state.path.length;
    state.textChars = 0;
    state.overflow = false;
  }
  /** The gathered text of `name`, closing, or null when none was gathered; an overflow marks the item. */
  function endText(name: string): string | null {
    const parts = state.text;
    if (parts === null || state.textDepth !== state.path.length + 1) return null;
    state.text = null;
    const item = state.item;
    if (state.overflow) {
      if (item !== null) item.oversized ??= name;
      return '';
    }
    const text = detached(parts.join(''));
    if (item !== null) {
      state.itemChars += text.length;
      if (state.itemChars > MAX_ITEM_CHARS) {
        item.oversized ??= 'the item as a whole';
        return '';
      }
    }
    return text;
  }

  const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: 64 * 1024 });
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      const clean = storable(chunk);
      stats.droppedChars += clean.dropped;
      feed(() => parser.write(clean.text));
      yield* out.splice(0);
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw badRequest(`Cannot read ${file}: ${(error as Error).message}`);
  } finally {
    stream.destroy();
  }
  feed(() => parser.close());
  yield* out.splice(0);
  if (!state.sawChannel || !state.sawWp)
    throw badRequest(`${file} is not a WordPress export: no <channel> with WordPress (wp:) elements`);

  function feed(step: () => unknown): void {
    try {
      step();
    } catch (error) {
      if (error instanceof AppError) throw error;
      const message = (error as Error).message.replace(/^\d+:\d+: /, '');
      throw badRequest(`${file} is not well-formed XML: line ${parser.line}, column ${parser.column}: ${message}`);
    }
  }
}
