import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { compileSerializer } from '../../http/serialization.js';
import { jsonWithRaw } from '../../shared/json.js';
import type { ContentKind, Snapshot } from '../../writes/kinds.js';
import { pageColumns } from './pages.columns.js';
import { pagesRepository } from './pages.repository.js';
import { Page } from './pages.schemas.js';

/** The writable fields of pages as their rows hold them inside the write (as posts.kind.ts keeps posts). */
async function pageSnapshots(
  trx: Kysely<Database>,
  workspaceId: string,
  ids: string[],
): Promise<Map<string, Snapshot>> {
  const rows = await pagesRepository.findByIds(trx, workspaceId, ids);
  return new Map(
    rows.map((row) => [
      row.id,
      {
        slug: row.slug,
        title: row.title,
        status: row.status,
        fields: jsonWithRaw(pageColumns.read(row), { bodyJson: row.body_json }),
      },
    ]),
  );
}

/** What the write path needs of pages: their webhook answer and their revisions (writes/kinds.ts). */
export const pageKind: ContentKind = { serialize: compileSerializer(Page), snapshots: pageSnapshots };
