import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.js';

/** Every table that holds a workspace's own data; post_renders is a cache that reads refill, so it is left out. */
const TABLES = [
  'memberships',
  'api_keys',
  'media',
  'authors',
  'categories',
  'tags',
  'posts',
  'post_tags',
  'related_posts',
  'post_revisions',
  'pages',
  'page_revisions',
  'review_links',
  'redirects',
  'link_health',
  'content_events',
  'webhook_endpoints',
  'webhook_events',
  'webhook_deliveries',
] as const;

/**
 * A digest of everything a workspace holds: its row and every row of its tables, in a stable order. Two
 * equal fingerprints mean nothing of the workspace changed in between (a refused write left no trace).
 */
export async function workspaceFingerprint(db: Kysely<Database>, workspaceId: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  // The reads go out together: on PostgreSQL the pool answers them side by side rather than one round trip each.
  const [workspace, ...tables] = await Promise.all([
    db.selectFrom('workspaces').selectAll().where('id', '=', workspaceId).execute(),
    ...TABLES.map((table) => db.selectFrom(table).selectAll().where('workspace_id', '=', workspaceId).execute()),
  ]);
  hash.update(JSON.stringify(workspace));
  TABLES.forEach((table, i) => {
    const lines = tables[i]!.map((row) => JSON.stringify(row)).sort();
    hash.update(`${table}:${lines.join('\n')}`);
  });
  return hash.digest('hex');
}
