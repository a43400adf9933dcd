import type { DatabaseHandle } from '../../db/database.js';
import type { Mailer } from '../../mail/mailer.js';
import type { Passwords } from '../../security/password.js';
import type { SessionsService } from '../dashboard/sessions.service.js';
import { createAuditService } from './audit.service.js';
import { createInvitationsService } from './invitations.service.js';
import { createPasswordResetsService } from './password-resets.service.js';

/**
 * A team's services (docs/team.md): the mailer, invitations, password resets and the audit log's reading, over the
 * dashboard's sessions.
 */
export function createTeamServices(
  database: DatabaseHandle,
  deps: { mailer: Mailer; publicUrl: string; passwords: Passwords; sessions: SessionsService },
) {
  return {
    mailer: deps.mailer,
    invitations: createInvitationsService(database, deps),
    passwordResets: createPasswordResetsService(database, deps),
    audit: createAuditService(database),
  };
}

export type TeamServices = ReturnType<typeof createTeamServices>;
