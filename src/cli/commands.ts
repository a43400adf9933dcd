import { migrateToLatest } from '../db/migrate.js';
import { badRequest } from '../errors.js';
import { parsePermissionList } from '../security/permissions.js';
import { describeSeed, parsePostCount, seedCommand } from '../seed/command.js';
import { describeSeededWorkspaces, parseWorkspaceCount, seedWorkspacesCommand } from '../seed/workspaces.js';
import type { Command, CommandInput } from './command.js';
import { ownerActorOf } from './owner-actor.js';
import { IMPORT_COMMANDS } from './import.commands.js';
import { OPERATE_COMMANDS } from './operate.commands.js';
import { SITE_COMMANDS } from './site.commands.js';
import { COMMAND_LINE } from '../audit/audit-log.js';

/** `quire workspace settings` flags and the site settings they set (docs/seo.md uses them). */
const SETTING_FLAGS = {
  'site-name': 'siteName',
  'site-url': 'siteUrl',
  'logo-media-id': 'logoMediaId',
  'publisher-name': 'publisherName',
  'publisher-url': 'publisherUrl',
  'post-url-pattern': 'postUrlPattern',
  'page-url-pattern': 'pageUrlPattern',
  'author-url-pattern': 'authorUrlPattern',
  'category-url-pattern': 'categoryUrlPattern',
  'preview-url-pattern': 'previewUrlPattern',
} as const;

function text(input: CommandInput, name: string): string {
  const value = input.flags[name];
  return typeof value === 'string' ? value : '';
}

function lines(record: Record<string, unknown>): string {
  return Object.entries(record)
    .map(
      ([key, value]) =>
        `${key}: ${typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)}`,
    )
    .join('\n');
}

/** The `quire` commands of contract §2 (but serve, which main.ts runs). */
export const COMMANDS: Record<string, Command> = {
  migrate: {
    usage: 'quire migrate',
    options: [],
    required: [],
    createsData: true,
    async run(runtime) {
      const results = await migrateToLatest(runtime.database);
      return { applied: results.filter((r) => r.status === 'Success').map((r) => r.migrationName) };
    },
    human: (result: { applied: string[] }) =>
      result.applied.length === 0 ? 'The schema is up to date.' : `Applied: ${result.applied.join(', ')}`,
  },

  'user create': {
    usage: 'quire user create --email E (--password P | --password-stdin)',
    options: ['email', 'password'],
    switches: ['password-stdin'],
    required: ['email'],
    createsData: true,
    async run(runtime, input) {
      const fromStdin = input.flags['password-stdin'] === true;
      if (fromStdin === (typeof input.flags.password === 'string'))
        throw badRequest('Give exactly one of --password and --password-stdin');
      const password = fromStdin ? (await input.readStdin()).replace(/\r?\n$/, '') : text(input, 'password');
      return runtime.services.accounts.createUser(text(input, 'email'), password);
    },
  },

  // What an operator of a server without mail does for someone who forgot their password.
  'user password': {
    usage: 'quire user password --email E (--password P | --password-stdin)',
    options: ['email', 'password'],
    switches: ['password-stdin'],
    required: ['email'],
    async run(runtime, input) {
      const fromStdin = input.flags['password-stdin'] === true;
      if (fromStdin === (typeof input.flags.password === 'string'))
        throw badRequest('Give exactly one of --password and --password-stdin');
      const password = fromStdin ? (await input.readStdin()).replace(/\r?\n$/, '') : text(input, 'password');
      return runtime.services.accounts.setPassword(text(input, 'email'), password);
    },
    human: (result: { email: string }) => `Set a new password for ${result.email}; their sessions have ended.`,
  },

  'workspace create': {
    usage: 'quire workspace create --name N --owner E',
    options: ['name', 'owner'],
    required: ['name', 'owner'],
    run: (runtime, input) => runtime.services.accounts.createWorkspace(text(input, 'name'), text(input, 'owner')),
  },

  'workspace transfer': {
    usage: 'quire workspace transfer --workspace W --to E',
    options: ['workspace', 'to'],
    required: ['workspace', 'to'],
    run: (runtime, input) =>
      runtime.services.accounts.transferWorkspace(text(input, 'workspace'), text(input, 'to'), COMMAND_LINE),
  },

  'member add': {
    usage: 'quire member add --workspace W --email E --permissions posts:read,posts:write',
    options: ['workspace', 'email', 'permissions'],
    required: ['workspace', 'email'],
    run: (runtime, input) =>
      runtime.services.accounts.addMember(
        text(input, 'workspace'),
        text(input, 'email'),
        parsePermissionList(text(input, 'permissions')),
        COMMAND_LINE,
      ),
  },

  'member set-permissions': {
    usage: 'quire member set-permissions --workspace W --email E --permissions LIST   ("" = none)',
    options: ['workspace', 'email', 'permissions'],
    required: ['workspace', 'email', 'permissions'],
    run: (runtime, input) =>
      runtime.services.accounts.setPermissions(
        text(input, 'workspace'),
        text(input, 'email'),
        parsePermissionList(text(input, 'permissions')),
        COMMAND_LINE,
      ),
  },

  'member remove': {
    usage: 'quire member remove --workspace W --email E',
    options: ['workspace', 'email'],
    required: ['workspace', 'email'],
    run: (runtime, input) =>
      runtime.services.accounts.removeMember(text(input, 'workspace'), text(input, 'email'), COMMAND_LINE),
  },

  'workspace settings': {
    usage:
      'quire workspace settings --workspace W [--site-name S] [--site-url URL] [--logo-media-id ID] [--publisher-name S] [--publisher-url URL] [--post-url-pattern /blog/{slug}] [--page-url-pattern P] [--author-url-pattern P] [--category-url-pattern P]   ("" clears; no option prints them)',
    options: ['workspace', ...Object.keys(SETTING_FLAGS)],
    required: ['workspace'],
    async run(runtime, input) {
      const workspace = await runtime.services.accounts.requireWorkspace(text(input, 'workspace'));
      const owner = ownerActorOf(workspace);
      const patch: Record<string, string | null> = {};
      for (const [flag, field] of Object.entries(SETTING_FLAGS)) {
        const value = input.flags[flag];
        if (typeof value === 'string') patch[field] = value.trim() === '' ? null : value;
      }
      if (
        patch.logoMediaId &&
        !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(patch.logoMediaId)
      )
        throw badRequest('--logo-media-id must be a media id (a UUID)');
      // The API lower-cases a UUID at validation; the command line has no validator in front of it.
      if (patch.logoMediaId) patch.logoMediaId = patch.logoMediaId.toLowerCase();
      const { settings } = runtime.services.dashboard;
      return Object.keys(patch).length === 0 ? settings.get(owner) : settings.update(owner, patch);
    },
  },

  'key create': {
    usage: 'quire key create --workspace W --email E --name N [--expires-at ISO]',
    options: ['workspace', 'email', 'name', 'expires-at'],
    required: ['workspace', 'email', 'name'],
    async run(runtime, input) {
      const { accounts, apiKeys } = runtime.services;
      const member = await accounts.getMember(text(input, 'workspace'), text(input, 'email'));
      const expiresAt = text(input, 'expires-at') || null;
      if (expiresAt !== null && Number.isNaN(Date.parse(expiresAt)))
        throw badRequest('--expires-at must be an ISO 8601 date-time');
      const name = text(input, 'name');
      if (name.trim() === '' || name.length > 100) throw badRequest('--name must be 1 to 100 characters long');
      const key = await apiKeys.issueKey(member.workspaceId, member.userId, { name, expiresAt }, COMMAND_LINE);
      return {
        id: key.id,
        name: key.name,
        keyPrefix: key.keyPrefix,
        key: key.key,
        expiresAt: key.expiresAt,
        createdAt: key.createdAt,
      };
    },
    human: (result: { key: string; keyPrefix: string; id: string }) =>
      `${result.key}\n\nStore it now (id ${result.id}, prefix ${result.keyPrefix}); while it is active, the owner or its creator can reveal it again in the dashboard's API keys.`,
  },

  'key list': {
    usage: 'quire key list --workspace W',
    options: ['workspace'],
    required: ['workspace'],
    async run(runtime, input) {
      const workspace = await runtime.services.accounts.requireWorkspace(text(input, 'workspace'));
      return runtime.services.apiKeys.listAll(workspace.id);
    },
    human: (
      result: Array<{
        id: string;
        name: string;
        keyPrefix: string;
        status: string;
        expiresAt: string | null;
        createdBy: { email: string };
      }>,
    ) =>
      result.length === 0
        ? 'No keys.'
        : result
            .map(
              (k) =>
                `${k.id}  ${k.keyPrefix}…  ${k.status.padEnd(7)}  ${k.name}  (by ${k.createdBy.email}${k.expiresAt ? `, expires ${k.expiresAt}` : ''})`,
            )
            .join('\n'),
  },

  'key revoke': {
    usage: 'quire key revoke --workspace W --id ID',
    options: ['workspace', 'id'],
    required: ['workspace', 'id'],
    async run(runtime, input) {
      const workspace = await runtime.services.accounts.requireWorkspace(text(input, 'workspace'));
      const id = text(input, 'id');
      if (!/^[0-9a-f-]{36}$/i.test(id)) throw badRequest('--id must be a key id (a UUID)');
      return runtime.services.apiKeys.revokeKey(workspace.id, id, COMMAND_LINE);
    },
  },

  seed: {
    usage: 'quire seed --workspace W [--posts N]',
    options: ['workspace', 'posts'],
    required: ['workspace'],
    run: (runtime, input) =>
      seedCommand(runtime, text(input, 'workspace'), parsePostCount(input.flags.posts), input.progress),
    human: describeSeed,
  },

  'seed workspaces': {
    usage: 'quire seed workspaces --count N --owner E [--posts N] [--name NAME]',
    options: ['count', 'owner', 'posts', 'name'],
    required: ['count', 'owner'],
    run: (runtime, input) =>
      seedWorkspacesCommand(
        runtime,
        {
          count: parseWorkspaceCount(input.flags.count),
          posts: parsePostCount(input.flags.posts),
          owner: text(input, 'owner'),
          name: text(input, 'name') || 'Seeded',
        },
        input.progress,
      ),
    human: describeSeededWorkspaces,
  },

  ...OPERATE_COMMANDS,
  ...IMPORT_COMMANDS,
  ...SITE_COMMANDS,
};

export function describe(result: unknown, command: Command): string {
  if (command.human) return command.human(result as never);
  return typeof result === 'object' && result !== null ? lines(result as Record<string, unknown>) : String(result);
}
