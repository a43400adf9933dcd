import type { LinkHealthRow } from './link-health.repository.js';
import type { LinkHealth } from './link-health.schemas.js';

export function presentLinkHealth(row: LinkHealthRow): LinkHealth {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    path: row.path,
    referrer: row.referrer,
    statusCode: row.status_code,
    // pg returns integers as numbers here; Number() also covers a driver handing back a bigint.
    hitCount: Number(row.hit_count),
    firstSeenAt: row.first_seen_at,
    lastSeenAt: row.last_seen_at,
  };
}
