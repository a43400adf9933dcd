/* eslint-disable @typescript-eslint/no-explicit-any -- a migration is written against the schema as it was then */
import type { Kysely, Migration } from 'kysely';
import type { DialectHelpers } from '../dialects/dialect.js';

/**
 * Passkeys (docs/team.md, "Passkeys"). `passkeys`: a user's WebAuthn credentials, by their base64url credential id,
 * with the COSE public key (base64url) and the signature counter an assertion must move forward. `webauthn_challenges`:
 * the ceremonies in flight, by the sha256 of their challenge, each taken once: a registration (its user), a sign-in's
 * second step (its user) or a sign-in without a password (no user yet: the passkey says who).
 */
export function passkeys({ types: t }: DialectHelpers): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('passkeys')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('user_id', t.uuid, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('credential_id', 'text', (c) => c.notNull().unique())
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('transports', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('device_type', 'text', (c) => c.notNull())
        .addColumn('backed_up', t.bool, (c) => c.notNull().defaultTo(false))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('last_used_at', t.timestamp)
        .execute();
      await db.schema.createIndex('passkeys_user_idx').on('passkeys').column('user_id').execute();
      await db.schema
        .createTable('webauthn_challenges')
        .addColumn('challenge_hash', 'text', (c) => c.primaryKey())
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('user_id', t.uuid, (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('expires_at', t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('webauthn_challenges_expires_idx')
        .on('webauthn_challenges')
        .column('expires_at')
        .execute();
    },
  };
}
