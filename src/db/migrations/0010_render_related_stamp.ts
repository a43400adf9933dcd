/* eslint-disable @typescript-eslint/no-explicit-any -- a migration is written against the schema as it was then */
import type { Kysely, Migration } from 'kysely';

/**
 * A stored render also records the sum of its related posts' render stamps when it was built
 * (posts.renders.ts), so that a write to a post no longer re-stamps the posts that list it. Renders stored
 * before get 0: they are served only while their post's related posts have never been written, and so
 * still show what those renders show.
 */
export function renderRelatedStamp(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('post_renders')
        .addColumn('related_stamp', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
