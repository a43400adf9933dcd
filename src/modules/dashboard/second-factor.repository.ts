import type { Insertable, Kysely } from 'kysely';
import type { Database, SignInChallengesTable } from '../../db/schema.js';

type Executor = Kysely<Database>;

/**
 * All SQL of totp_factors, recovery_codes and sign_in_challenges: a user's second factor, not a workspace's (their
 * passkeys are passkeys.repository.ts's; factorsOf reads whether there is one).
 */
export const secondFactorRepository = {
  /** The second factors the user has: a confirmed authenticator app, a passkey. */
  async factorsOf(db: Executor, userId: string): Promise<Array<'totp' | 'passkey'>> {
    const row = await db
      .selectNoFrom((eb) => [
        eb
          .exists(
            eb
              .selectFrom('totp_factors')
              .select('user_id')
              .where('user_id', '=', userId)
              .where('confirmed_at', 'is not', null),
          )
          .as('totp'),
        eb.exists(eb.selectFrom('passkeys').select('user_id').where('user_id', '=', userId)).as('passkey'),
      ])
      .executeTakeFirstOrThrow();
    return [...(row.totp ? ['totp' as const] : []), ...(row.passkey ? ['passkey' as const] : [])];
  },

  findTotp(db: Executor, userId: string) {
    return db.selectFrom('totp_factors').selectAll().where('user_id', '=', userId).executeTakeFirst();
  },

  /** A new, unconfirmed secret in place of whatever unconfirmed one there was. */
  async putUnconfirmed(db: Executor, userId: string, secretEncrypted: string, now: string): Promise<void> {
    await db
      .insertInto('totp_factors')
      .values({ user_id: userId, secret_encrypted: secretEncrypted, confirmed_at: null, last_step: 0, created_at: now })
      .onConflict((oc) =>
        oc
          .column('user_id')
          .doUpdateSet({ secret_encrypted: secretEncrypted, confirmed_at: null, last_step: 0, created_at: now }),
      )
      .execute();
  },

  /**
   * Moves the factor's last used step forward to `step`, and confirms it; false when another request used this
   * step or a later one first (the same code twice at once: one wins).
   */
  async useStep(db: Executor, userId: string, step: number, now: string): Promise<boolean> {
    const result = await db
      .updateTable('totp_factors')
      .set((eb) => ({ last_step: step, confirmed_at: eb.fn.coalesce('confirmed_at', eb.val(now)) }))
      .where('user_id', '=', userId)
      .where('last_step', '<', step)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async deleteTotp(db: Executor, userId: string, options: { keepRecoveryCodes: boolean }): Promise<void> {
    await db.deleteFrom('totp_factors').where('user_id', '=', userId).execute();
    if (!options.keepRecoveryCodes) await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  },

  async deleteRecoveryCodes(db: Executor, userId: string): Promise<void> {
    await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  },

  async replaceRecoveryCodes(db: Executor, userId: string, hashes: string[], now: string): Promise<void> {
    await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    await db
      .insertInto('recovery_codes')
      .values(hashes.map((code_hash) => ({ user_id: userId, code_hash, created_at: now })))
      .execute();
  },

  /** Spends one recovery code; false when it is not one of the user's unused codes. */
  async takeRecoveryCode(db: Executor, userId: string, hash: string): Promise<boolean> {
    const result = await db
      .deleteFrom('recovery_codes')
      .where('user_id', '=', userId)
      .where('code_hash', '=', hash)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  },

  async countRecoveryCodes(db: Executor, userId: string): Promise<number> {
    const row = await db
      .selectFrom('recovery_codes')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  },

  async insertChallenge(db: Executor, row: Insertable<SignInChallengesTable>): Promise<void> {
    await db.insertInto('sign_in_challenges').values(row).execute();
  },

  findChallenge(db: Executor, tokenHash: string) {
    return db
      .selectFrom('sign_in_challenges')
      .innerJoin('users', 'users.id', 'sign_in_challenges.user_id')
      .select(['sign_in_challenges.user_id', 'sign_in_challenges.expires_at', 'users.email'])
      .where('sign_in_challenges.token_hash', '=', tokenHash)
      .executeTakeFirst();
  },

  /** Spends a challenge; false when another request spent it first. */
  async takeChallenge(db: Executor, tokenHash: string): Promise<boolean> {
    const result = await db.deleteFrom('sign_in_challenges').where('token_hash', '=', tokenHash).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  },

  async deleteExpiredChallenges(db: Executor, now: string): Promise<void> {
    await db.deleteFrom('sign_in_challenges').where('expires_at', '<=', now).execute();
  },

  /** The workspaces of `userId` that require a second factor, by name. */
  async workspacesRequiring(db: Executor, userId: string): Promise<string[]> {
    const rows = await db
      .selectFrom('memberships')
      .innerJoin('workspaces', 'workspaces.id', 'memberships.workspace_id')
      .select('workspaces.name')
      .where('memberships.user_id', '=', userId)
      .where('workspaces.require_second_factor', '=', true)
      .execute();
    return rows.map((row) => row.name);
  },
};
