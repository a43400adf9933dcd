import type { Actor } from '../../src/security/actor.js';
import crypto from 'node:crypto';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp, type AppDependencies } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { DialectName } from '../../src/db/dialects/dialect.js';
import { loggerOptions } from '../../src/server/logging.js';
import { ALL_PERMISSIONS, type Permission } from '../../src/security/permissions.js';
import { openRuntime, type Runtime } from '../../src/runtime.js';
import { contractObserver } from './contract.js';
import { takeContractMismatches } from './contract-mismatches.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { TEST_PASSWORD_COST } from '../e2e/helpers.js';
import { COMMAND_LINE } from '../../src/audit/audit-log.js';

export const EXTERNAL = '/api/v1/external';

export interface TestUser {
  id: string;
  email: string;
}

export interface TestWorkspace {
  id: string;
  slug: string;
  owner: TestUser;
}

/** The app as production builds it, on a database of its own, with factories and a log capture. */
export interface TestContext {
  app: FastifyInstance;
  runtime: Runtime;
  config: Config;
  database: TestDatabase;
  /** Every line the app logged, parsed. */
  logs: Array<Record<string, unknown>>;
  createUser(email?: string): Promise<TestUser>;
  createWorkspace(owner?: TestUser, name?: string): Promise<TestWorkspace>;
  addMember(workspace: TestWorkspace, user: TestUser, permissions: readonly Permission[]): Promise<void>;
  setPermissions(workspace: TestWorkspace, user: TestUser, permissions: readonly Permission[]): Promise<void>;
  /** Issues a key for `user` in `workspace` and returns its plaintext and id. */
  createKey(
    workspace: TestWorkspace,
    user: TestUser,
    options?: { name?: string; expiresAt?: string | null },
  ): Promise<{ id: string; key: string }>;
  /** A member holding exactly `permissions` and a key of theirs, in a fresh or given workspace. */
  memberKey(
    permissions: readonly Permission[],
    workspace?: TestWorkspace,
  ): Promise<{ user: TestUser; key: string; keyId: string; workspace: TestWorkspace }>;
  /** The owner of a fresh workspace and a key of theirs. */
  ownerKey(): Promise<{ workspace: TestWorkspace; key: string; keyId: string }>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  deps?: Partial<Pick<AppDependencies, 'redis' | 'dashboardDir'>>;
  /** Check every external answer against the OpenAPI document (helpers/contract.ts); on by default. */
  contract?: boolean;
}

export async function buildTestApp(dialect: DialectName, options: TestAppOptions = {}): Promise<TestContext> {
  const database = await createTestDatabase(dialect);
  const config = loadConfig({
    QUIRE_DATA_DIR: database.dataDir,
    ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
    LOG_LEVEL: 'info',
    QUIRE_PASSWORD_COST: TEST_PASSWORD_COST,
    ...options.env,
  });
  const runtime = await openRuntime(config);
  const logs: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line.trim()) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const loggerInstance = pino(loggerOptions(config.logLevel) as pino.LoggerOptions, sink);
  const responseObserver = options.contract === false ? undefined : contractObserver(() => app);
  const app: FastifyInstance = await buildApp({
    config,
    database: runtime.database,
    masterKey: runtime.masterKey,
    loggerInstance,
    responseObserver,
    ...options.deps,
  });
  await app.ready();

  const { accounts, apiKeys } = runtime.services;
  let counter = 0;
  const ctx: TestContext = {
    app,
    runtime,
    config,
    database,
    logs,
    async createUser(email) {
      counter += 1;
      const address = email ?? `user${counter}-${crypto.randomBytes(3).toString('hex')}@example.com`;
      // Straight to the table: scrypt at production strength would make every test slow.
      const now = new Date().toISOString();
      const id = crypto.randomUUID();
      await runtime.database.db
        .insertInto('users')
        .values({ id, email: address, password_hash: null, created_at: now, updated_at: now })
        .execute();
      return { id, email: address };
    },
    async createWorkspace(owner, name) {
      const user = owner ?? (await ctx.createUser());
      counter += 1;
      const workspace = await accounts.createWorkspace(name ?? `Workspace ${counter}`, user.email);
      return { id: workspace.id, slug: workspace.slug, owner: user };
    },
    async addMember(workspace, user, permissions) {
      await accounts.addMember(workspace.id, user.email, [...permissions], COMMAND_LINE);
    },
    async setPermissions(workspace, user, permissions) {
      await accounts.setPermissions(workspace.id, user.email, [...permissions], COMMAND_LINE);
    },
    async createKey(workspace, user, keyOptions = {}) {
      const issued = await apiKeys.issueKey(
        workspace.id,
        user.id,
        {
          name: keyOptions.name ?? 'test key',
          expiresAt: keyOptions.expiresAt ?? null,
        },
        COMMAND_LINE,
      );
      return { id: issued.id, key: issued.key };
    },
    async memberKey(permissions, workspace) {
      const ws = workspace ?? (await ctx.createWorkspace());
      const user = await ctx.createUser();
      await ctx.addMember(ws, user, permissions);
      const { id, key } = await ctx.createKey(ws, user);
      return { user, key, keyId: id, workspace: ws };
    },
    async ownerKey() {
      const workspace = await ctx.createWorkspace();
      const { id, key } = await ctx.createKey(workspace, workspace.owner);
      return { workspace, key, keyId: id };
    },
    async close() {
      await app.close();
      await runtime.close();
      await database.drop();
      // Answers to requests made outside a test (beforeAll, afterAll) are checked here.
      const mismatches = takeContractMismatches();
      if (mismatches.length > 0)
        throw new Error(`Responses that do not match the OpenAPI document:\n- ${mismatches.join('\n- ')}`);
    },
  };
  return ctx;
}

export { ALL_PERMISSIONS };

/** The owner of `workspace` as a service sees the actor: for calls into services the tests make directly. */
export function ownerActor(workspace: Pick<TestWorkspace, 'id' | 'owner'>): Actor {
  return {
    workspaceId: workspace.id,
    userId: workspace.owner.id,
    apiKeyId: null,
    isOwner: true,
    permissions: new Set(),
    contentVersion: 0,
  };
}
