/* eslint-disable @typescript-eslint/no-explicit-any -- a migration is written against the schema as it was then */
import type { Kysely, Migration } from 'kysely';
import type { DialectHelpers } from '../dialects/dialect.js';

/**
 * Sign-ons begun at the OpenID provider and not yet back (docs/team.md, "Single sign-on"): by the sha256 of their
 * `state`, with the nonce and PKCE verifier the answer must match. Kept in the database so that any instance can
 * take the answer; a sign-on's row is taken once.
 */
export function oidcLogins({ types: t }: DialectHelpers): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('oidc_logins')
        .addColumn('state_hash', 'text', (c) => c.primaryKey())
        .addColumn('nonce', 'text', (c) => c.notNull())
        .addColumn('code_verifier', 'text', (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('expires_at', t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('oidc_logins_expires_idx').on('oidc_logins').column('expires_at').execute();
    },
  };
}
