import type { DatabaseHandle } from '../../db/database.js';
import type { Passwords } from '../../security/password.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import { createMembersService } from './members.service.js';
import { createPasskeysService } from './passkeys.service.js';
import { createSecondFactorService } from './second-factor.service.js';
import { createSessionsService } from './sessions.service.js';
import { createSsoService } from './sso.service.js';
import type { OidcConfig } from '../../config.js';
import type { MasterKey } from '../../security/master-key.js';
import { createSettingsService } from '../workspaces/site-settings.service.js';
import { readSiteSettings } from '../site-settings/site-settings.service.js';
import { createSetupService } from './setup.service.js';
import { createDashboardWorkspacesService } from './workspaces.service.js';

/** The dashboard's own services; API keys and content go through the services the external API uses. */
export function createDashboardServices(
  database: DatabaseHandle,
  accounts: AccountsService,
  passwords: Passwords,
  masterKey: MasterKey,
  site: { oidc: OidcConfig | null; publicUrl: string },
) {
  const sessions = createSessionsService(database, passwords);
  const workspaces = createDashboardWorkspacesService(database, accounts);
  return {
    sessions,
    secondFactor: createSecondFactorService(database, masterKey, sessions),
    passkeys: createPasskeysService(database, sessions, site.publicUrl),
    sso: createSsoService(database, site.oidc, site.publicUrl, sessions),
    setup: createSetupService(database, sessions, passwords),
    workspaces,
    settings: createSettingsService(database, (db, workspaceId) => readSiteSettings(db, site.publicUrl, workspaceId)),
    members: createMembersService(database, accounts, workspaces),
  };
}

export type DashboardServices = ReturnType<typeof createDashboardServices>;
