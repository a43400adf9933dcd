/* eslint-disable @typescript-eslint/no-explicit-any -- a migration is written against the schema as it was then */
import type { Kysely, Migration } from 'kysely';
import type { DialectHelpers } from '../dialects/dialect.js';

/**
 * Review (docs/team.md, "Review"). `reviews`: one per post or page ever submitted, its state moving as it is
 * submitted again, decided on or withdrawn; the queue reads it by state, newest activity first. `review_entries`:
 * its thread (submissions, comments, decisions), oldest first. `notifications`: what a member is told, newest
 * first, and how many are unread; pruned after QUIRE_AUDIT_RETENTION_DAYS, and gone with the membership. People
 * are kept by email as well, so a thread still says who after an account is gone.
 */
export function reviews({ types: t }: DialectHelpers): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('reviews')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('resource_type', 'text', (c) => c.notNull())
        .addColumn('resource_id', t.uuid, (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('submitted_by', t.uuid, (c) => c.references('users.id').onDelete('set null'))
        .addColumn('submitted_by_email', 'text', (c) => c.notNull())
        .addColumn('submitted_at', t.timestamp, (c) => c.notNull())
        .addColumn('decided_by', t.uuid, (c) => c.references('users.id').onDelete('set null'))
        .addColumn('decided_by_email', 'text')
        .addColumn('decided_at', t.timestamp)
        .addColumn('updated_at', t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('reviews_resource_idx')
        .on('reviews')
        .columns(['workspace_id', 'resource_type', 'resource_id'])
        .unique()
        .execute();
      await db.schema
        .createIndex('reviews_queue_idx')
        .on('reviews')
        .columns(['workspace_id', 'state', 'updated_at', 'id'])
        .execute();

      await db.schema
        .createTable('review_entries')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('review_id', t.uuid, (c) => c.notNull().references('reviews.id').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('body', 'text')
        .addColumn('author_id', t.uuid, (c) => c.references('users.id').onDelete('set null'))
        .addColumn('author_email', 'text', (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('review_entries_review_idx')
        .on('review_entries')
        .columns(['review_id', 'created_at', 'id'])
        .execute();

      await db.schema
        .createTable('notifications')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('user_id', t.uuid, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('review_id', t.uuid, (c) => c.notNull().references('reviews.id').onDelete('cascade'))
        .addColumn('actor_id', t.uuid, (c) => c.references('users.id').onDelete('set null'))
        .addColumn('actor_email', 'text', (c) => c.notNull())
        .addColumn('excerpt', 'text')
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('read_at', t.timestamp)
        // A member removed is told nothing more, and what they were told here goes with their membership.
        .addForeignKeyConstraint(
          'notifications_member_fk',
          ['workspace_id', 'user_id'],
          'memberships',
          ['workspace_id', 'user_id'],
          (fk) => fk.onDelete('cascade'),
        )
        .execute();
      await db.schema
        .createIndex('notifications_inbox_idx')
        .on('notifications')
        .columns(['workspace_id', 'user_id', 'created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('notifications_unread_idx')
        .on('notifications')
        .columns(['workspace_id', 'user_id', 'read_at'])
        .execute();
      // Pruned with the audit log, oldest first.
      await db.schema.createIndex('notifications_created_idx').on('notifications').column('created_at').execute();
    },
  };
}
