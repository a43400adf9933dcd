/* eslint-disable @typescript-eslint/no-explicit-any -- a migration is written against the schema as it was then */
import type { Kysely, Migration } from 'kysely';
import type { DialectHelpers } from '../dialects/dialect.js';

/**
 * Dashboard sign-in: sessions (only the sha256 of the cookie's token is stored) and the failed
 * sign-in attempts the throttle counts. Both live in the database so every instance sees them.
 */
export function sessions({ types: t }: DialectHelpers): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('sessions')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', t.uuid, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('csrf_token', 'text', (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('last_seen_at', t.timestamp, (c) => c.notNull())
        .addColumn('expires_at', t.timestamp, (c) => c.notNull())
        .addColumn('user_agent', 'text')
        .addColumn('ip', 'text')
        .execute();
      await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();
      await db.schema.createIndex('sessions_expires_idx').on('sessions').column('expires_at').execute();

      // `key` is a sha256 of "account:<email>" or "address:<ip>": what people type into an email
      // field (sometimes their password) is never stored.
      await db.schema
        .createTable('sign_in_attempts')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('attempted_at', t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('sign_in_attempts_key_idx')
        .on('sign_in_attempts')
        .columns(['key', 'attempted_at'])
        .execute();
      await db.schema.createIndex('sign_in_attempts_time_idx').on('sign_in_attempts').column('attempted_at').execute();
    },
  };
}
