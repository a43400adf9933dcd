/* eslint-disable @typescript-eslint/no-explicit-any -- a migration is written against the schema as it was then */
import type { Kysely, Migration } from 'kysely';
import type { DialectHelpers } from '../dialects/dialect.js';

/**
 * A second factor at sign-in (docs/team.md, "Second factor"). `totp_factors`: a user's authenticator app, its
 * secret encrypted under the master key, unconfirmed until a first code is right; `last_step` refuses a code used
 * once already. `recovery_codes`: the sha256 of each unused code. `sign_in_challenges`: a sign-in whose password
 * was right and whose second factor is awaited. And whether a workspace requires one of every member.
 */
export function secondFactors({ types: t }: DialectHelpers): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('totp_factors')
        .addColumn('user_id', t.uuid, (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('secret_encrypted', 'text', (c) => c.notNull())
        .addColumn('confirmed_at', t.timestamp)
        .addColumn('last_step', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('recovery_codes')
        .addColumn('user_id', t.uuid, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint('recovery_codes_pk', ['user_id', 'code_hash'])
        .execute();
      await db.schema
        .createTable('sign_in_challenges')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', t.uuid, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('expires_at', t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('sign_in_challenges_expires_idx')
        .on('sign_in_challenges')
        .column('expires_at')
        .execute();
      await db.schema
        .alterTable('workspaces')
        .addColumn('require_second_factor', t.bool, (c) => c.notNull().defaultTo(false))
        .execute();
    },
  };
}
