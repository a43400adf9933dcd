import type { Kysely, Selectable } from 'kysely';
import type { Database, SessionsTable } from '../../db/schema.js';

type Executor = Kysely<Database>;

export type SessionRow = Selectable<SessionsTable>;
export type SessionWithUser = SessionRow & { email: string };

/** A user's live sessions, most recently seen first: a walk of (user_id, last_seen_at). */
export function sessionListQuery(db: Executor, userId: string, now: string) {
  return (
    db
      .selectFrom('sessions')
      .select(['id', 'user_agent', 'ip', 'created_at', 'last_seen_at', 'expires_at'])
      .where('user_id', '=', userId)
      // An expired session stays in the table until a sign-in sweeps it; it is no longer one to list.
      .where('expires_at', '>', now)
      .orderBy('last_seen_at', 'desc')
      .orderBy('id', 'desc')
  );
}

/** Sessions and sign-in attempts belong to users, not workspaces: nothing here takes a workspace id. */
export const sessionsRepository = {
  async insert(db: Executor, session: SessionRow): Promise<void> {
    await db.insertInto('sessions').values(session).execute();
  },

  /** One lookup by the unique token_hash index, with the user's email. */
  findByTokenHash(db: Executor, tokenHash: string): Promise<SessionWithUser | undefined> {
    return db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .selectAll('sessions')
      .select('users.email')
      .where('sessions.token_hash', '=', tokenHash)
      .executeTakeFirst();
  },

  findById(db: Executor, id: string): Promise<SessionRow | undefined> {
    return db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
  },

  async touch(db: Executor, id: string, lastSeenAt: string, expiresAt: string): Promise<void> {
    await db
      .updateTable('sessions')
      .set({ last_seen_at: lastSeenAt, expires_at: expiresAt })
      .where('id', '=', id)
      .execute();
  },

  /** Ends one session of this user; false when they have none of that id. */
  async deleteOwn(db: Executor, userId: string, id: string): Promise<boolean> {
    const result = await db
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },

  /** Every session of the user but `keepId`; how many ended. */
  async deleteOthers(db: Executor, userId: string, keepId: string): Promise<number> {
    const result = await db
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .where('id', '!=', keepId)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },

  async delete(db: Executor, id: string): Promise<void> {
    await db.deleteFrom('sessions').where('id', '=', id).execute();
  },

  async deleteByTokenHash(db: Executor, tokenHash: string): Promise<void> {
    await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
  },

  async deleteExpired(db: Executor, now: string): Promise<void> {
    await db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
  },
};

export interface AttemptRow {
  id: string;
  key: string;
  attempted_at: string;
}

export const signInAttemptsRepository = {
  async insert(db: Executor, rows: AttemptRow[]): Promise<void> {
    await db.insertInto('sign_in_attempts').values(rows).execute();
  },

  /** The attempts of `key` since `since`, newest first (at most `limit`). */
  async recent(db: Executor, key: string, since: string, limit: number): Promise<string[]> {
    const rows = await db
      .selectFrom('sign_in_attempts')
      .select('attempted_at')
      .where('key', '=', key)
      .where('attempted_at', '>', since)
      .orderBy('attempted_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => row.attempted_at);
  },

  async deleteByIds(db: Executor, ids: string[]): Promise<void> {
    if (ids.length > 0) await db.deleteFrom('sign_in_attempts').where('id', 'in', ids).execute();
  },

  async deleteForKey(db: Executor, key: string): Promise<void> {
    await db.deleteFrom('sign_in_attempts').where('key', '=', key).execute();
  },

  async deleteBefore(db: Executor, cutoff: string): Promise<void> {
    await db.deleteFrom('sign_in_attempts').where('attempted_at', '<=', cutoff).execute();
  },
};
