/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are written against the schema as it was then */
import type { Kysely, Migration } from 'kysely';

/**
 * What a site shows while an image loads, computed once at upload (media.images.ts): a tiny blurred
 * preview as a data URI and the image's dominant colour. Rows uploaded before stay null: the bytes live
 * in storage, which a migration cannot reach, and a site falls back to a plain box (docs/decisions.md).
 */
export function mediaPlaceholders(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('media').addColumn('placeholder', 'text').execute();
      await db.schema.alterTable('media').addColumn('dominant_color', 'text').execute();
    },
  };
}
