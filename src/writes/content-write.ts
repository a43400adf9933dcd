import type { Kysely } from 'kysely';
import type { DatabaseHandle } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { lockWorkspace } from '../db/locks.js';
import { writeTransaction } from '../db/transaction.js';
import { nowIso } from '../shared/time.js';
import type { Writer } from '../security/writer.js';
import { eventsOf, type Change } from './changes.js';
import type { ContentTransaction } from './content-transaction.js';
import { contentEventsRepository } from './content-events.repository.js';
import { recordRevisions } from './revisions.js';
import { deliveriesQueued, recordDeliveries } from './webhook-outbox.js';

/**
 * A writer with a step of its own in the write's transaction, after the work: an importer's ledger row
 * (modules/imports), so an item and the record that it was imported commit together or not at all. The services
 * take it as the Writer they pass on; contentWrite runs the step.
 */
export interface AlongsideWriter extends Writer {
  alongside(trx: Kysely<Database>, answer: unknown): Promise<void>;
}

const hasAlongside = (writer: Writer): writer is AlongsideWriter =>
  typeof (writer as Partial<AlongsideWriter>).alongside === 'function';

/** What a content write's work is given: the transaction, and where to say what it changed. */
export interface ContentWriteScope {
  trx: ContentTransaction;
  workspaceId: string;
  /**
   * Declares one changed resource; each becomes a content event when the work returns (a post or page created
   * as published, two: `eventsOf`).
   */
  changed(change: Change): void;
  /**
   * Waits for every other content write of the workspace to end and keeps them waiting until this one
   * commits (PostgreSQL; SQLite runs writes one at a time anyway): for checks that must see every committed
   * write of the workspace, such as a redirect loop or a category cycle.
   */
  serialize(): Promise<void>;
}

/**
 * The one way content is written. Runs `work` in a transaction, then records one content event per change
 * it declared in that same transaction; recording an event moves the workspace's content version, which
 * keys every cached answer, and the embeds version that labels stored post renders (migration 0011). So a
 * write commits together with its events and its invalidation, or not at all. A post or page it changed
 * gets its revision here too (writes/revisions.ts), and each event its webhook deliveries (the outbox,
 * writes/webhook-outbox.ts), so no write can leave them out.
 *
 * `work` answers what the write answers its client (the resource as written, the snapshot of a deletion): the
 * writer's seal, when it has one, takes it last, and an answer it cannot serialize rolls the write back.
 * A write that declares no change commits nothing visible and records nothing. A unique index the write
 * collides with (a concurrent write took the slug between the check and the insert) is the 409 the check
 * would have given, naming the field, on either dialect.
 */
export async function contentWrite<T>(
  database: DatabaseHandle,
  writer: Writer,
  work: (scope: ContentWriteScope) => Promise<T>,
): Promise<T> {
  let queued = 0;
  const answer = await writeTransaction(database, async (trx) => {
    const changes: Change[] = [];
    const scope: ContentWriteScope = {
      // The one place a transaction becomes a ContentTransaction (the brand exists only for the compiler).
      trx: trx as ContentTransaction,
      workspaceId: writer.workspaceId,
      changed: (change) => void changes.push(...eventsOf(change)),
      serialize: () => lockWorkspace(trx, database.dialect, writer.workspaceId),
    };
    const result = await work(scope);
    if (changes.length > 0) {
      const now = nowIso();
      await contentEventsRepository.record(trx, writer, changes, now);
      await recordRevisions(trx, writer, changes, now, database);
      queued = await recordDeliveries(trx, writer, changes, result, now);
    }
    if (hasAlongside(writer)) await writer.alongside(trx, result);
    writer.seal?.(result);
    return result;
  });
  if (queued > 0) deliveriesQueued();
  return answer;
}
