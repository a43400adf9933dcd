import type { DatabaseHandle } from '../../db/database.js';
import type { Mailer } from '../../mail/mailer.js';
import type { Passwords } from '../../security/password.js';
import { createInvitationsService } from '../team/invitations.service.js';
import { createPasswordResetsService } from '../team/password-resets.service.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import { createMembersService } from './members.service.js';
import { createSessionsService } from './sessions.service.js';
import { createSettingsService } from '../workspaces/site-settings.service.js';
import { createSetupService } from './setup.service.js';
import { createDashboardWorkspacesService } from './workspaces.service.js';

/** The dashboard's own services; API keys and content go through the services the external API uses. */
export function createDashboardServices(
  database: DatabaseHandle,
  accounts: AccountsService,
  passwords: Passwords,
  { mailer, publicUrl }: { mailer: Mailer; publicUrl: string },
) {
  const sessions = createSessionsService(database, passwords);
  const workspaces = createDashboardWorkspacesService(database, accounts);
  return {
    mailer,
    invitations: createInvitationsService(database, { mailer, publicUrl, passwords, sessions }),
    passwordResets: createPasswordResetsService(database, { mailer, publicUrl, passwords, sessions }),
    sessions,
    setup: createSetupService(database, sessions, passwords),
    workspaces,
    settings: createSettingsService(database),
    members: createMembersService(database, accounts, workspaces),
  };
}

export type DashboardServices = ReturnType<typeof createDashboardServices>;
