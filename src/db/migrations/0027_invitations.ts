/* eslint-disable @typescript-eslint/no-explicit-any -- a migration is written against the schema as it was then */
import type { Kysely, Migration } from 'kysely';
import type { DialectHelpers } from '../dialects/dialect.js';

/**
 * A team (docs/team.md). `invitations`: a workspace's pending invitations, one per email, each with the
 * permissions its member will hold; accepting or revoking one deletes its row, so a link works once. `password_resets`:
 * the links a reset mail carries. Both keep only the sha256 of their token, like sessions. And an index for the
 * sessions screen.
 */
export function invitations({ types: t }: DialectHelpers): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('invitations')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        // Lower-cased, as users.email.
        .addColumn('email', 'text', (c) => c.notNull())
        // JSON array of permission names, as memberships.permissions.
        .addColumn('permissions', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('invited_by_user_id', t.uuid, (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        // When the current link was made and mailed (a resend makes a new one).
        .addColumn('sent_at', t.timestamp, (c) => c.notNull())
        .addColumn('expires_at', t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('invitations_workspace_email_idx')
        .on('invitations')
        .columns(['workspace_id', 'email'])
        .unique()
        .execute();
      await db.schema
        .createIndex('invitations_workspace_created_idx')
        .on('invitations')
        .columns(['workspace_id', 'created_at', 'id'])
        .execute();

      // The sessions screen lists a user's sessions, most recently seen first.
      await db.schema
        .createIndex('sessions_user_seen_idx')
        .on('sessions')
        .columns(['user_id', 'last_seen_at', 'id'])
        .execute();

      await db.schema
        .createTable('password_resets')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', t.uuid, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('expires_at', t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('password_resets_user_idx').on('password_resets').column('user_id').execute();
      await db.schema.createIndex('password_resets_expires_idx').on('password_resets').column('expires_at').execute();
    },
  };
}
