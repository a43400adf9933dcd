import type { RevisionRow, RevisionSummaryRow } from '../../writes/revisions.repository.js';
import type { RevisionSummary } from './revisions.schemas.js';

export function presentRevisionSummary(row: RevisionSummaryRow): RevisionSummary {
  return {
    n: row.n,
    action: row.action as RevisionSummary['action'],
    slug: row.slug,
    title: row.title,
    userId: row.actor_user_id,
    apiKeyId: row.actor_api_key_id,
    createdAt: row.created_at,
  };
}

/** A revision with its fields, which were a valid write of the resource when they were kept. */
export function presentRevision<Fields>(row: RevisionRow): RevisionSummary & { fields: Fields } {
  return { ...presentRevisionSummary(row), fields: JSON.parse(row.fields) as Fields };
}
