import type { Actor } from '../security/actor.js';
import { ALL_PERMISSIONS } from '../security/permissions.js';

/** A workspace row as the accounts service finds it for a command. */
interface WorkspaceRow {
  id: string;
  owner_user_id: string;
  content_version: number;
}

/** The command line acts as the workspace's owner: it runs on the server, with the database's credentials. */
export function ownerActorOf(workspace: WorkspaceRow): Actor {
  return {
    workspaceId: workspace.id,
    userId: workspace.owner_user_id,
    apiKeyId: null,
    isOwner: true,
    permissions: new Set(ALL_PERMISSIONS),
    contentVersion: workspace.content_version,
  };
}
