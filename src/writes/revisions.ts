import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Writer } from '../security/writer.js';
import type { Change, ChangeAction } from './changes.js';
import { contentKind, type ContentKind } from './kinds.js';
import { revisionsRepository, type RevisedKind } from './revisions.repository.js';

type Executor = Kysely<Database>;

/**
 * The actions that keep a revision. A deletion leaves the fields as they were (and the post unreachable), and
 * tags are attached and detached by routes of their own, not written by a PATCH a restore could replay.
 */
const REVISED_ACTIONS: ReadonlySet<ChangeAction> = new Set([
  'created',
  'updated',
  'published',
  'unpublished',
  'archived',
]);

/** Ids per statement when a write (a seed, a media deletion) revises many posts at once. */
const IDS_PER_STATEMENT = 500;

export function keepsRevision(change: Change): change is Change & { type: RevisedKind } {
  return (
    (change.type === 'post' || change.type === 'page') &&
    change.revision !== false &&
    REVISED_ACTIONS.has(change.action)
  );
}

function snapshotsOf(kind: RevisedKind): NonNullable<ContentKind['snapshots']> {
  const snapshots = contentKind(kind).snapshots;
  if (!snapshots) throw new Error(`The content kind '${kind}' keeps revisions but takes no snapshots`);
  return snapshots;
}

/**
 * Keeps a revision of every post and page a content write changed (contentWrite calls this with the changes
 * its work declared, in the same transaction): the fields as the write left them, who wrote and when,
 * numbered after the resource's last one. Revisions past the newest `kept` go in the same transaction.
 */
export async function recordRevisions(
  trx: Executor,
  writer: Writer,
  changes: readonly Change[],
  now: string,
  kept: number,
): Promise<void> {
  for (const kind of ['post', 'page'] as const) {
    const actions = new Map<string, ChangeAction>();
    for (const change of changes)
      if (change.type === kind && keepsRevision(change)) actions.set(change.id, change.action);
    const ids = [...actions.keys()];
    for (let start = 0; start < ids.length; start += IDS_PER_STATEMENT) {
      const batch = ids.slice(start, start + IDS_PER_STATEMENT);
      const snapshots = await snapshotsOf(kind)(trx, writer.workspaceId, batch);
      const rows = batch.flatMap((id) => {
        const snapshot = snapshots.get(id);
        if (!snapshot) return [];
        return [
          {
            workspace_id: writer.workspaceId,
            resource_id: id,
            action: actions.get(id)!,
            slug: snapshot.slug,
            title: snapshot.title,
            fields: JSON.stringify(snapshot.fields),
            actor_user_id: writer.userId,
            actor_api_key_id: writer.apiKeyId,
            created_at: now,
          },
        ];
      });
      for (const { resource_id, n } of await revisionsRepository.insert(trx, kind, rows))
        if (n > kept) await revisionsRepository.prune(trx, kind, writer.workspaceId, resource_id, n - kept);
    }
  }
}
