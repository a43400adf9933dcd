import type { Insertable, Kysely } from 'kysely';
import type { DatabaseHandle } from '../db/database.js';
import type { Database, RevisionsTable } from '../db/schema.js';
import type { Writer } from '../security/writer.js';
import type { Change, ChangeAction } from './changes.js';
import { contentKind, type ContentKind } from './kinds.js';
import { mergesInto, openedAt } from './revision-windows.js';
import { revisionsRepository, type RevisedKind } from './revisions.repository.js';

type Executor = Kysely<Database>;
type RevisionInsert = Omit<Insertable<RevisionsTable>, 'n'>;

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
 * numbered after the resource's last one, or written into that one when it is the same writer's open window on
 * a draft (writes/revision-windows.ts). Revisions past the newest `revisionsKept` go in the same transaction.
 */
export async function recordRevisions(
  trx: Executor,
  writer: Writer,
  changes: readonly Change[],
  now: string,
  settings: Pick<DatabaseHandle, 'revisionsKept' | 'revisionWindowSeconds'>,
): Promise<void> {
  for (const kind of ['post', 'page'] as const) {
    const actions = new Map<string, ChangeAction>();
    for (const change of changes)
      if (change.type === kind && keepsRevision(change)) actions.set(change.id, change.action);
    const ids = [...actions.keys()];
    for (let start = 0; start < ids.length; start += IDS_PER_STATEMENT) {
      const batch = ids.slice(start, start + IDS_PER_STATEMENT);
      const snapshots = await snapshotsOf(kind)(trx, writer.workspaceId, batch);
      const rows = batch.flatMap((id): RevisionInsert[] => {
        const snapshot = snapshots.get(id);
        if (!snapshot) return [];
        const action = actions.get(id)!;
        return [
          {
            workspace_id: writer.workspaceId,
            resource_id: id,
            action,
            slug: snapshot.slug,
            title: snapshot.title,
            fields: snapshot.fields,
            actor_user_id: writer.userId,
            actor_api_key_id: writer.apiKeyId,
            created_at: now,
            opened_at: openedAt(action, snapshot, writer, now),
          },
        ];
      });
      const unmerged = await mergeIntoWindows(trx, kind, writer, rows, now, settings.revisionWindowSeconds);
      const kept = settings.revisionsKept;
      for (const { resource_id, n } of await revisionsRepository.insert(trx, kind, unmerged))
        if (n > kept) await revisionsRepository.prune(trx, kind, writer.workspaceId, resource_id, n - kept);
    }
  }
}

/**
 * Writes each of `rows` that merges into its resource's newest revision there, and answers the others, which
 * are inserted. It reads and writes under the workspace lock the write's events took, which orders every
 * write of the workspace's revisions (the numbering relies on it too): a concurrent save of the same draft
 * waits for this one to commit, then reads the revision as it left it.
 */
async function mergeIntoWindows(
  trx: Executor,
  kind: RevisedKind,
  writer: Writer,
  rows: RevisionInsert[],
  now: string,
  windowSeconds: number,
): Promise<RevisionInsert[]> {
  const opening = windowSeconds > 0 ? rows.filter((row) => row.opened_at) : [];
  if (opening.length === 0) return rows;
  const ids = opening.map((row) => row.resource_id);
  const newest = await revisionsRepository.newest(trx, kind, writer.workspaceId, ids);
  const merged = new Set<string>();
  for (const row of opening) {
    const into = newest.get(row.resource_id);
    if (!mergesInto(into, writer, now, windowSeconds)) continue;
    await revisionsRepository.overwrite(trx, kind, writer.workspaceId, row.resource_id, into.n, row);
    merged.add(row.resource_id);
  }
  return merged.size === 0 ? rows : rows.filter((row) => !merged.has(row.resource_id));
}
