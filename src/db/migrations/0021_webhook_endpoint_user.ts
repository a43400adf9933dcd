/* eslint-disable @typescript-eslint/no-explicit-any -- a migration is written against the schema as it was then */
import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectHelpers } from '../dialects/dialect.js';

/**
 * A webhook sends what its user may read, at the time of sending (docs/webhooks.md, "Permissions"): an endpoint
 * names the user on whose permissions it sends, and a delivery not sent for want of them says why. Endpoints
 * made before this sent everything, which only the workspace's owner may read: they are the owner's. The
 * column is left nullable, as SQLite adds a NOT NULL column only with a default; every insert sets it.
 */
export function webhookEndpointUser({ types: t }: DialectHelpers): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('webhook_endpoints').addColumn('user_id', t.uuid).execute();
      await sql`update webhook_endpoints set user_id =
        (select owner_user_id from workspaces where workspaces.id = webhook_endpoints.workspace_id)`.execute(db);
      await db.schema.alterTable('webhook_deliveries').addColumn('skipped_reason', 'text').execute();
    },
  };
}
