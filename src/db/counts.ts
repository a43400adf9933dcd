import { sql, type RawBuilder } from 'kysely';

/**
 * A workspace's live posts: the sum of its kept counts per status (migration 0019), which the triggers on posts
 * move with every insert, delete, deletion and status change, so no write keeps it by hand.
 */
export const livePostCount = (workspaceId: string): RawBuilder<number> =>
  sql<number>`(select coalesce(sum(live_count), 0) from post_status_counts where workspace_id = ${workspaceId})`;
