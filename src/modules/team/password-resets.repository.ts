import type { Kysely } from 'kysely';
import type { Database, PasswordResetsTable } from '../../db/schema.js';

type Executor = Kysely<Database>;

/** All SQL of `password_resets`: links to accounts, which belong to the installation, not to a workspace. */
export const passwordResetsRepository = {
  async insert(db: Executor, row: PasswordResetsTable): Promise<void> {
    await db.insertInto('password_resets').values(row).execute();
  },

  findByTokenHash(db: Executor, tokenHash: string): Promise<PasswordResetsTable | undefined> {
    return db.selectFrom('password_resets').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  },

  /** True when this call deleted it: of two uses of one link at once, one wins. */
  async take(db: Executor, tokenHash: string): Promise<boolean> {
    const result = await db.deleteFrom('password_resets').where('token_hash', '=', tokenHash).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },

  async deleteExpired(db: Executor, now: string): Promise<void> {
    await db.deleteFrom('password_resets').where('expires_at', '<=', now).execute();
  },
};
