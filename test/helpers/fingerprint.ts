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
  const workspace = await db.selectFrom('workspaces').selectAll().where('id', '=', workspaceId).execute();
  hash.update(JSON.stringify(workspace));
  for (const table of TABLES) {
    const rows = await db.selectFrom(table).selectAll().where('workspace_id', '=', workspaceId).execute();
    const lines = rows.map((row) => JSON.stringify(row)).sort();
    hash.update(`${table}:${lines.join('\n')}`);
  }
  return hash.digest('hex');
}
