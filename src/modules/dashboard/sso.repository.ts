import type { Insertable, Kysely } from 'kysely';
import type { Database, OidcLoginsTable } from '../../db/schema.js';

type Executor = Kysely<Database>;

/** All SQL of oidc_logins: sign-ons awaiting their provider's answer. */
export const ssoRepository = {
  async insert(db: Executor, row: Insertable<OidcLoginsTable>): Promise<void> {
    await db.insertInto('oidc_logins').values(row).execute();
  },

  /** The sign-on of this state, deleted as it is read: an answer is taken once, by whichever request comes first. */
  take(db: Executor, stateHash: string) {
    return db.deleteFrom('oidc_logins').where('state_hash', '=', stateHash).returningAll().executeTakeFirst();
  },

  async deleteExpired(db: Executor, now: string): Promise<void> {
    await db.deleteFrom('oidc_logins').where('expires_at', '<=', now).execute();
  },
};
