import type { Kysely } from 'kysely';
import type { DatabaseHandle } from '../../db/database.js';
import { untyped } from '../../db/keyset.js';
import type { Database } from '../../db/schema.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import { accountsRepository } from '../../modules/accounts/accounts.repository.js';
import { workspacesRepository } from '../../modules/workspaces/workspaces.repository.js';
import { ARCHIVED_TABLES, type ArchivedTable } from './tables.js';

/** The workspace an import writes into: one that exists, or the archive's, made for `ownerUserId`. */
export interface ImportTarget {
  id: string;
  slug: string;
  name: string;
  exists: boolean;
  ownerUserId: string;
}

export interface ArchiveWorkspace {
  id: string;
  slug: string;
  name: string;
}

/**
 * `--workspace W` names an existing workspace. Without it the import goes to the workspace with the archive's
 * id, which is made (same id, slug and name, owned by `--owner`) when this installation does not have it: ids
 * are kept, so media URLs, which carry the workspace id, stay the same.
 */
export async function resolveTarget(
  database: DatabaseHandle,
  archived: ArchiveWorkspace,
  options: { workspace?: string; owner?: string },
): Promise<ImportTarget> {
  const { db } = database;
  const named = options.workspace ?? archived.id;
  const found = await workspacesRepository.findByIdOrSlug(db, named);
  if (found)
    return { id: found.id, slug: found.slug, name: found.name, exists: true, ownerUserId: found.owner_user_id };
  if (options.workspace !== undefined) throw notFound(`Workspace ${options.workspace}`);
  if (options.owner === undefined)
    throw badRequest(
      `Workspace ${archived.slug} (${archived.id}) does not exist here: give --owner EMAIL to create it from the archive, or --workspace W to import into an existing one`,
    );
  const owner = await accountsRepository.findUserByEmail(db, options.owner.trim().toLowerCase());
  if (!owner) throw notFound(`User ${options.owner}`);
  if ((await workspacesRepository.takenSlugs(db, [archived.slug])).size > 0)
    throw conflict(
      `The archive's workspace slug ${archived.slug} is taken by another workspace here: create a workspace and import with --workspace W`,
    );
  return { ...archived, exists: false, ownerUserId: owner.id };
}

/** What a workspace holds, by table ("3 posts, 1 tag"), or null when it holds none of what an archive holds. */
export async function contentOf(db: Kysely<Database>, workspaceId: string): Promise<string | null> {
  const held: string[] = [];
  for (const table of ARCHIVED_TABLES) {
    const row = await untyped(db)
      .selectFrom(table.name)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    if (Number(row.count) > 0) held.push(`${Number(row.count)} ${table.name.replace('_', ' ')}`);
  }
  return held.length === 0 ? null : held.join(', ');
}

/** Of `ids`, those rows of `table` already stored, with the workspace each is in (ids are unique installation-wide). */
export async function storedIds(
  db: Kysely<Database>,
  table: ArchivedTable,
  ids: string[],
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (let start = 0; start < ids.length; start += 500) {
    const rows = await untyped(db)
      .selectFrom(table.name)
      .select(['id', 'workspace_id'])
      .where('id', 'in', ids.slice(start, start + 500))
      .execute();
    for (const row of rows) found.set(String(row.id), String(row.workspace_id));
  }
  return found;
}

/**
 * Rows of the workspace that hold one of `rows`' unique values (a slug, a path) under another id: an import
 * of those rows would collide with them. Answers the first such value, or null.
 */
export async function uniqueCollision(
  db: Kysely<Database>,
  table: ArchivedTable,
  workspaceId: string,
  rows: ReadonlyArray<Record<string, unknown>>,
): Promise<string | null> {
  if (!table.unique || rows.length === 0) return null;
  const [column] = table.unique.columns;
  const candidates = rows.filter((row) => !table.unique!.liveOnly || row.deleted_at === null);
  const ids = new Map(candidates.map((row) => [String(row[column!]), String(row.id)]));
  for (let start = 0; start < candidates.length; start += 500) {
    let query = untyped(db)
      .selectFrom(table.name)
      .select(['id', column!])
      .where('workspace_id', '=', workspaceId)
      .where(
        column!,
        'in',
        candidates.slice(start, start + 500).map((row) => row[column!] as string),
      );
    if (table.unique.liveOnly) query = query.where('deleted_at', 'is', null);
    for (const row of await query.execute()) {
      const value = String(row[column!]);
      if (ids.get(value) !== String(row.id)) return value;
    }
  }
  return null;
}
