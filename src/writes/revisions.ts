import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { pageColumns } from '../modules/pages/pages.columns.js';
import { pagesRepository } from '../modules/pages/pages.repository.js';
import { postColumns } from '../modules/posts/posts.columns.js';
import { postsRepository } from '../modules/posts/posts.repository.js';
import type { Change, ChangeAction, Writer } from './changes.js';
import { revisionsRepository, type RevisedKind } from './revisions.repository.js';

type Executor = Kysely<Database>;

/** What a revision keeps of a post or page: its writable fields, and the slug and title a list shows. */
interface Snapshot {
  slug: string;
  title: string;
  fields: Record<string, unknown>;
}

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

/**
 * The writable fields of posts as their rows hold them inside the write: every field of the column map, the
 * bodies in their stored form (heading ids assigned, no image urls) and the live related posts in order. A
 * PATCH of these fields makes the post what it was.
 */
async function postSnapshots(trx: Executor, workspaceId: string, ids: string[]): Promise<Map<string, Snapshot>> {
  const rows = await postsRepository.findByIds(trx, workspaceId, ids);
  const related = new Map<string, string[]>();
  for (const row of await postsRepository.relatedOf(trx, workspaceId, ids))
    related.set(row.post_id, [...(related.get(row.post_id) ?? []), row.id]);
  return new Map(
    rows.map((row) => [
      row.id,
      {
        slug: row.slug,
        title: row.title,
        fields: {
          ...postColumns.read(row),
          bodyJson: JSON.parse(row.body_json) as unknown,
          structuredBlocks: JSON.parse(row.structured_blocks) as unknown,
          relatedPostIds: related.get(row.id) ?? [],
        },
      },
    ]),
  );
}

/** The writable fields of pages as their rows hold them inside the write (see postSnapshots). */
async function pageSnapshots(trx: Executor, workspaceId: string, ids: string[]): Promise<Map<string, Snapshot>> {
  const rows = await pagesRepository.findByIds(trx, workspaceId, ids);
  return new Map(
    rows.map((row) => [
      row.id,
      {
        slug: row.slug,
        title: row.title,
        fields: { ...pageColumns.read(row), bodyJson: JSON.parse(row.body_json) as unknown },
      },
    ]),
  );
}

const SNAPSHOTS = { post: postSnapshots, page: pageSnapshots } as const;

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
      const snapshots = await SNAPSHOTS[kind](trx, writer.workspaceId, batch);
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
