import type { DatabaseHandle } from '../../../db/database.js';
import { compileSerializer } from '../../../http/serialization.js';
import { pageOf, type ListAnswer, type PageRequest } from '../../../shared/paging.js';
import { LARGE_READ_BYTES, LARGE_READS } from '../../../shared/gate.js';
import { wordQuery } from '../../../shared/search-words.js';
import type { Actor } from '../../../security/actor.js';
import { presentPages } from '../pages.embeds.js';
import { pagesRepository, type PageRow } from '../pages.repository.js';
import { renderBlocks } from '@quire/blocks';
import { Page, type PageListQuery, type PageSortKey } from '../pages.schemas.js';

/**
 * A page with its body as HTML. Pages keep no stored render (they are few and read through the response cache),
 * so the HTML is rendered on each uncached read that asks for it.
 */
export function withBodyHtml(page: Page): Page {
  return { ...page, bodyHtml: renderBlocks(page.bodyJson) };
}

/** The bytes of pages one batch of a list holds in memory at a time (as post-reads.ts BATCH_BYTES). */
export const BATCH_BYTES = 8 * 1024 * 1024;

type ListedPage = Omit<PageRow, 'body_json' | 'body_text' | 'search_head' | 'search_text'> & {
  /** Null, as the text, when the body is too large to come with the list: both are loaded with its batch. */
  body_json: string | null;
  body_text: string | null;
  body_bytes: number;
};

/** What a page's answer weighs: its text twice over (in the blocks and as bodyText) and a few kilobytes more. */
const weight = (page: ListedPage) => 2 * Number(page.body_bytes) + 4 * 1024;

/**
 * How lists of pages are read: presented and serialized a batch at a time, so that a list of pages near the
 * limits is streamed without holding all of them (http/list-answer.ts); an ordinary list is one batch, in the
 * queries it always cost.
 */
export function createPageReads(database: DatabaseHandle, publicUrl: string) {
  const { db, dialect } = database;
  const serializePage = compileSerializer<Page>(Page);

  async function* rendered(workspaceId: string, rows: readonly ListedPage[], html: boolean): AsyncGenerator<Buffer> {
    for (let start = 0; start < rows.length;) {
      const batch: ListedPage[] = [];
      let bytes = 0;
      for (const row of rows.slice(start)) {
        if (batch.length > 0 && bytes + weight(row) > BATCH_BYTES) break;
        batch.push(row);
        bytes += weight(row);
      }
      start += batch.length;
      const build = () => render(workspaceId, batch, html);
      yield* bytes > LARGE_READ_BYTES ? await LARGE_READS(build) : await build();
    }
  }

  /** One batch: the bodies it lacks, then each page presented and serialized. */
  async function render(workspaceId: string, batch: readonly ListedPage[], html: boolean): Promise<Buffer[]> {
    const bodies = await pagesRepository.findBodies(
      db,
      workspaceId,
      batch.filter((row) => row.body_json === null).map((row) => row.id),
    );
    // A page deleted between the list and its body's load is left out.
    const complete = batch.flatMap((row) => {
      const body = row.body_json !== null && row.body_text !== null ? row : bodies.get(row.id);
      if (body === undefined) return [];
      return [{ ...row, body_json: body.body_json!, body_text: body.body_text!, search_head: '', search_text: '' }];
    });
    return (await presentPages(db, workspaceId, complete, publicUrl)).map((page) =>
      Buffer.from(serializePage(html ? withBodyHtml(page) : page)),
    );
  }

  return {
    async list(
      actor: Actor,
      query: PageListQuery,
      page: PageRequest<PageSortKey>,
      { html = false } = {},
    ): Promise<ListAnswer> {
      const filter = {
        ...(query.q ? { q: wordQuery(query.q) } : {}),
        ...(query.status ? { status: query.status } : {}),
      };
      const list = (reader: typeof db) => pagesRepository.list(reader, dialect, actor.workspaceId, filter, page);
      const { rows, total } = await (filter.q ? dialect.searching(db, list) : list(db));
      return {
        page: pageOf(page, [], total),
        items: rendered(actor.workspaceId, rows, html),
        bytes: rows.reduce((sum, row) => sum + weight(row), 0),
      };
    },
  };
}

export type PageReads = ReturnType<typeof createPageReads>;
