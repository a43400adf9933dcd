import type { DatabaseHandle } from './db/database.js';
import { createAccountsService } from './modules/accounts/accounts.service.js';
import { createApiKeysService } from './modules/api-keys/api-keys.service.js';
import { createPagesService } from './modules/pages/pages.service.js';
import { createPostsService } from './modules/posts/posts.service.js';
import type { MasterKey } from './security/master-key.js';

/** Every service, built once per process; the HTTP routes and the CLI call the same ones. */
export function createServices(database: DatabaseHandle, masterKey: MasterKey, publicUrl: string) {
  return {
    accounts: createAccountsService(database),
    apiKeys: createApiKeysService(database, masterKey),
    posts: createPostsService(database, publicUrl),
    pages: createPagesService(database, publicUrl),
  };
}

export type Services = ReturnType<typeof createServices>;
