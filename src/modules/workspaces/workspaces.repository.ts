import type { Kysely } from 'kysely';
import type { Database, WorkspaceRow, WorkspacesTable } from '../../db/schema.js';
import { isUuid } from '../../shared/slug.js';

type Executor = Kysely<Database>;

export type SettingsColumns = Partial<
  Pick<
    WorkspacesTable,
    | 'site_name'
    | 'site_url'
    | 'logo_media_id'
    | 'publisher_name'
    | 'publisher_url'
    | 'post_url_pattern'
    | 'page_url_pattern'
    | 'author_url_pattern'
    | 'category_url_pattern'
    | 'preview_url_pattern'
  >
>;

export type NewWorkspace = Omit<WorkspaceRow, 'content_version' | 'embeds_version' | 'require_second_factor'>;

/**
 * Every write of the workspaces row, and its reads outside a membership. Its versions are moved by the
 * content events alone (migration 0011), never from here.
 */
export const workspacesRepository = {
  findByIdOrSlug(db: Executor, idOrSlug: string): Promise<WorkspaceRow | undefined> {
    return db
      .selectFrom('workspaces')
      .selectAll()
      .where(isUuid(idOrSlug) ? 'id' : 'slug', '=', idOrSlug.toLowerCase())
      .executeTakeFirst();
  },

  async takenSlugs(db: Executor, candidates: string[]): Promise<Set<string>> {
    const rows = await db.selectFrom('workspaces').select('slug').where('slug', 'in', candidates).execute();
    return new Set(rows.map((row) => row.slug));
  },

  async setRequireSecondFactor(db: Executor, workspaceId: string, required: boolean, now: string): Promise<void> {
    await db
      .updateTable('workspaces')
      .set({ require_second_factor: required, updated_at: now })
      .where('id', '=', workspaceId)
      .execute();
  },

  async insert(db: Executor, workspace: NewWorkspace): Promise<void> {
    await db.insertInto('workspaces').values(workspace).execute();
  },

  async setOwner(db: Executor, workspaceId: string, ownerUserId: string, now: string): Promise<void> {
    await db
      .updateTable('workspaces')
      .set({ owner_user_id: ownerUserId, updated_at: now })
      .where('id', '=', workspaceId)
      .execute();
  },

  async rename(db: Executor, workspaceId: string, name: string, now: string): Promise<void> {
    await db.updateTable('workspaces').set({ name, updated_at: now }).where('id', '=', workspaceId).execute();
  },

  async updateSettings(db: Executor, workspaceId: string, columns: SettingsColumns, now: string): Promise<void> {
    await db
      .updateTable('workspaces')
      .set({ ...columns, updated_at: now })
      .where('id', '=', workspaceId)
      .execute();
  },

  /** The logo has no foreign key (media references workspaces): a media deletion lets go of it here. */
  async releaseLogo(db: Executor, workspaceId: string, mediaId: string): Promise<boolean> {
    const result = await db
      .updateTable('workspaces')
      .set({ logo_media_id: null })
      .where('id', '=', workspaceId)
      .where('logo_media_id', '=', mediaId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },
};
