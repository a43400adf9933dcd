/* eslint-disable @typescript-eslint/no-explicit-any -- a migration is written against the schema as it was then */
import type { Kysely, Migration } from 'kysely';
import type { DialectHelpers } from '../dialects/dialect.js';

/**
 * Each stored render keeps its JSON deflated beside it, so an answer a client asked to have in gzip is spliced
 * from stored forms rather than compressed on the request (shared/gzip-pieces.ts). Renders stored before have
 * none: the render version moved with this migration, so each is built again, with its deflated form, on its
 * next read.
 */
export function renderDeflated({ types: t }: DialectHelpers): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('post_renders').addColumn('json_deflated', t.bytes).execute();
    },
  };
}
