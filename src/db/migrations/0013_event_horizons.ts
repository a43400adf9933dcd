/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are written against the schema as it was then */
import type { Kysely, Migration } from 'kysely';
import type { DialectHelpers } from '../dialects/dialect.js';

/**
 * How far retention has pruned each workspace's content events: the highest number it deleted. A reader of
 * the change feed whose cursor is below it may have missed events that are gone, and is told to resync
 * rather than given a feed with a hole in it (src/modules/changes). Written by the prune, in the
 * transaction that deletes the events.
 */
export function eventHorizons({ name, types: t }: DialectHelpers): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('content_event_horizons')
        .addColumn('workspace_id', t.uuid, (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
        .addColumn('pruned_through', name === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull())
        .execute();
    },
  };
}
