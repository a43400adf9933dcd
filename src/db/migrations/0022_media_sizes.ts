/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are written against the schema as it was then */
import type { Kysely, Migration } from 'kysely';
import type { DialectHelpers } from '../dialects/dialect.js';

/**
 * Image sizes a layout asks for (media.sizes.ts): the focal point a crop is centred on, set by the writer
 * (`media.focal_point`, `{x, y}` fractions as JSON; null is the centre), and the sizes made of each image
 * beyond the ladder (`media_variants`), counted against their bound and listed for the media's deletion. The
 * rows go with their media row, by the foreign key.
 */
export function mediaSizes({ types: t }: DialectHelpers): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('media').addColumn('focal_point', t.json).execute();
      await db.schema
        .createTable('media_variants')
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('media_id', t.uuid, (c) => c.notNull().references('media.id').onDelete('cascade'))
        .addColumn('size', 'text', (c) => c.notNull())
        .addColumn('format', 'text', (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint('media_variants_pk', ['workspace_id', 'media_id', 'size', 'format'])
        .execute();
    },
  };
}
