import type { RedirectRow } from './redirects.repository.js';
import { redirectColumns } from './redirects.columns.js';
import type { Redirect, RedirectUpdateBody } from './redirects.schemas.js';

export function presentRedirect(row: RedirectRow): Redirect {
  return {
    // The status column's CHECK constraint admits only the four codes the schema names.
    ...(redirectColumns.read(row) as Required<RedirectUpdateBody>),
    id: row.id,
    workspaceId: row.workspace_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
