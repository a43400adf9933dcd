import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { storable } from './storable.js';

type Executor = Kysely<Database>;

export type LedgerItemType = 'author' | 'category' | 'tag' | 'post' | 'page' | 'redirect' | 'media' | 'media-sha256';

/** Where a ledger row is: the workspace, the source system and site, the item's type and its id there. */
export interface LedgerKey {
  workspaceId: string;
  source: string;
  itemType: LedgerItemType;
  sourceId: string;
}

export interface LedgerEntry {
  quireId: string;
  contentHash: string;
}

/**
 * A key as both databases store it: a source's ids are its own text (a WordPress path, a file name) and may hold
 * what PostgreSQL refuses; every lookup and record goes through here, so they agree.
 */
const stored = (key: LedgerKey) => ({ ...key, source: storable(key.source), sourceId: storable(key.sourceId) });

/** All SQL of import_ledger (migration 0024): one row a source item, looked up by its primary key. */
export const importLedgerRepository = {
  async find(db: Executor, given: LedgerKey): Promise<LedgerEntry | undefined> {
    const key = stored(given);
    const row = await db
      .selectFrom('import_ledger')
      .select(['quire_id', 'content_hash'])
      .where('workspace_id', '=', key.workspaceId)
      .where('source', '=', key.source)
      .where('item_type', '=', key.itemType)
      .where('source_id', '=', key.sourceId)
      .executeTakeFirst();
    return row && { quireId: row.quire_id, contentHash: row.content_hash };
  },

  async record(db: Executor, given: LedgerKey, entry: LedgerEntry, now: string): Promise<void> {
    const key = stored(given);
    await db
      .insertInto('import_ledger')
      .values({
        workspace_id: key.workspaceId,
        source: key.source,
        item_type: key.itemType,
        source_id: key.sourceId,
        quire_id: entry.quireId,
        content_hash: entry.contentHash,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc
          .columns(['workspace_id', 'source', 'item_type', 'source_id'])
          .doUpdateSet({ quire_id: entry.quireId, content_hash: entry.contentHash, updated_at: now }),
      )
      .execute();
  },
};
