import type { Insertable, Kysely } from 'kysely';
import type { Database, PasskeysTable, WebauthnChallengesTable } from '../../db/schema.js';

type Executor = Kysely<Database>;

/** All SQL of passkeys and webauthn_challenges: a user's passkeys, and the ceremonies in flight. */
export const passkeysRepository = {
  listForUser(db: Executor, userId: string) {
    return db
      .selectFrom('passkeys')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  },

  findOwn(db: Executor, userId: string, id: string) {
    return db.selectFrom('passkeys').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  },

  /** A passkey by its credential id, with whose it is. */
  findByCredentialId(db: Executor, credentialId: string) {
    return db
      .selectFrom('passkeys')
      .innerJoin('users', 'users.id', 'passkeys.user_id')
      .selectAll('passkeys')
      .select('users.email')
      .where('passkeys.credential_id', '=', credentialId)
      .executeTakeFirst();
  },

  async insert(db: Executor, row: Insertable<PasskeysTable>): Promise<void> {
    await db.insertInto('passkeys').values(row).execute();
  },

  /**
   * The counter and backup state an assertion reported, and when; false when another assertion moved the counter
   * first (the same signature twice at once: one wins).
   */
  async used(
    db: Executor,
    id: string,
    from: number,
    to: { counter: number; backedUp: boolean; at: string },
  ): Promise<boolean> {
    const result = await db
      .updateTable('passkeys')
      .set({ counter: to.counter, backed_up: to.backedUp, last_used_at: to.at })
      .where('id', '=', id)
      .where('counter', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async rename(db: Executor, userId: string, id: string, name: string): Promise<boolean> {
    const result = await db
      .updateTable('passkeys')
      .set({ name })
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async delete(db: Executor, userId: string, id: string): Promise<boolean> {
    const result = await db
      .deleteFrom('passkeys')
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  },

  async insertChallenge(db: Executor, row: Insertable<WebauthnChallengesTable>, now: string): Promise<void> {
    await db.deleteFrom('webauthn_challenges').where('expires_at', '<=', now).execute();
    await db.insertInto('webauthn_challenges').values(row).execute();
  },

  /** Takes a ceremony's challenge: the row, once; undefined when unknown or taken already. */
  async takeChallenge(db: Executor, challengeHash: string) {
    const row = await db
      .selectFrom('webauthn_challenges')
      .selectAll()
      .where('challenge_hash', '=', challengeHash)
      .executeTakeFirst();
    if (!row) return undefined;
    const result = await db
      .deleteFrom('webauthn_challenges')
      .where('challenge_hash', '=', challengeHash)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1 ? row : undefined;
  },
};
