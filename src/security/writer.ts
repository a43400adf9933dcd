import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * Who writes, as the change events record it: a key's creator and the key, a dashboard user (no key), or
 * the command line (neither). An Actor is one.
 */
export interface Writer {
  workspaceId: string;
  userId: string | null;
  apiKeyId: string | null;
  /**
   * Takes the write's answer before the write commits. The HTTP layer serializes it here (server/sealed-answer.ts):
   * an answer that cannot be written out throws, and the write rolls back instead of committing behind a 500.
   */
  seal?: (answer: unknown) => void;
  /**
   * Writes what belongs with the content write in its transaction, after the write's work: an importer's ledger
   * row (modules/imports), so an item and the record that it was imported commit together or not at all.
   */
  alongside?: (trx: Kysely<Database>, answer: unknown) => Promise<void>;
}
