import type { RedirectRow } from './redirects.repository.js';
import type { Redirect, RedirectStatusCode } from './redirects.schemas.js';

export function presentRedirect(row: RedirectRow): Redirect {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    fromPath: row.from_path,
    toPath: row.to_path,
    // The column's CHECK constraint admits only these four.
    statusCode: row.status_code as RedirectStatusCode,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
