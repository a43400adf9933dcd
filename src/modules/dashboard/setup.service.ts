import crypto from 'node:crypto';
import type { DatabaseHandle } from '../../db/database.js';
import { AppError } from '../../errors.js';
import type { Passwords } from '../../security/password.js';
import { accountsRepository as accounts } from '../accounts/accounts.repository.js';
import { checkWorkspaceName, insertOwnedWorkspace } from '../accounts/accounts.service.js';
import type { SetupBody } from './dashboard.schemas.js';
import { emailField } from './input.js';
import type { ClientInfo, SessionsService, StartedSession } from './sessions.service.js';

/** Tries of the first run's transaction when a racing one makes it fail (see run). */
const SETUP_ATTEMPTS = 3;

export const setupDone = () => new AppError('NOT_FOUND', 'Setup has already been done; sign in instead');

/** The first run: while no user exists at all, anyone who reaches the server may create the first one. */
export function createSetupService({ db }: DatabaseHandle, sessions: SessionsService, passwords: Passwords) {
  return {
    async needed(): Promise<boolean> {
      return (await accounts.countUsers(db)) === 0;
    },

    /** The first user, their workspace, its owner membership and their session, all in one transaction. */
    async run(body: SetupBody, client: ClientInfo): Promise<StartedSession> {
      if ((await accounts.countUsers(db)) > 0) throw setupDone();
      const email = emailField(body.email);
      const name = checkWorkspaceName(body.workspaceName);
      const passwordHash = await passwords.hash(body.password);
      // Serializable, so that two setups racing on PostgreSQL cannot both see an empty users table. The loser
      // fails on a serialization error or the unique email, which PostgreSQL may raise before the winner has
      // committed: it tries again, and then finds the winner's user (or, should the winner have failed, is it).
      for (let attempt = 1; ; attempt++) {
        try {
          return await db
            .transaction()
            .setIsolationLevel('serializable')
            .execute(async (trx) => {
              if ((await accounts.countUsers(trx)) > 0) throw setupDone();
              const now = new Date().toISOString();
              const user = {
                id: crypto.randomUUID(),
                email,
                password_hash: passwordHash,
                created_at: now,
                updated_at: now,
              };
              await accounts.insertUser(trx, user);
              await insertOwnedWorkspace(trx, name, user.id);
              return sessions.start(trx, user, client);
            });
        } catch (error) {
          if (error instanceof AppError || attempt === SETUP_ATTEMPTS) throw error;
        }
      }
    },
  };
}

export type SetupService = ReturnType<typeof createSetupService>;
