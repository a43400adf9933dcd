import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cli,
  cliJson,
  eventually,
  EXTERNAL,
  oneLineFailure,
  startServer,
  tempDir,
  type CliResult,
  type ServerProcess,
} from './helpers.js';

const PASSWORD = 'correct horse battery staple';

interface Workspace {
  id: string;
  slug: string;
  ownerUserId: string;
}
interface Key {
  id: string;
  key: string;
  keyPrefix: string;
}
interface Member {
  email: string;
  permissions: string[];
}

describe('quire serve and the quire CLI, as separate processes on SQLite', () => {
  const dir = tempDir();
  const env = { QUIRE_DATA_DIR: dir.dataDir };
  let server: ServerProcess;

  beforeAll(async () => {
    expect(fs.existsSync(dir.dataDir)).toBe(false);
    server = await startServer(env);
  });
  afterAll(async () => {
    await server?.stop().catch(() => undefined);
    dir.remove();
  });

  const listKeys = (key: string) => server.fetch(`${EXTERNAL}/api-keys`, { headers: { 'X-API-Key': key } });

  it('creates the data dir on first start: WAL database, media/, a 0600 master.key, and prints how to begin', async () => {
    expect(fs.statSync(path.join(dir.dataDir, 'media')).isDirectory()).toBe(true);
    const masterKey = fs.statSync(path.join(dir.dataDir, 'master.key'));
    expect(masterKey.mode & 0o777).toBe(0o600);
    expect(Buffer.from(fs.readFileSync(path.join(dir.dataDir, 'master.key'), 'utf8').trim(), 'base64')).toHaveLength(
      32,
    );

    const sqlite = new BetterSqlite3(path.join(dir.dataDir, 'quire.sqlite'), { readonly: true, fileMustExist: true });
    try {
      expect(sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      sqlite.close();
    }

    // The hint follows the listen, so it may land a moment after /healthz first answers.
    await eventually(() => server.stdout().includes('quire user create'), 'the first-start hint on stdout');
    const migrated = server
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; migrations?: string[]; ms?: number })
      .find((line) => line.msg === 'applied migrations');
    expect(migrated?.migrations?.[0]).toBe('0001_initial');
    expect(migrated?.migrations).toContain('0009_workspace_id_indexes');
    expect(migrated?.ms).toBeGreaterThanOrEqual(0);
    expect(server.stdout()).toContain('quire workspace create');
    expect(server.stdout()).toContain('quire key create');
  });

  it('serves the dashboard, the API reference and the OpenAPI document from the built files', async () => {
    // The server runs from dist/bundle/, where no module sits at the depth of its source file: the
    // dashboard's folder is found from the repository root.
    const setup = await server.fetch('/dashboard/');
    expect(setup.status).toBe(200);
    expect(setup.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await setup.text();
    const script = /<script[^>]+src="([^"]+\.js)"/.exec(html)?.[1];
    expect(script, html).toBeDefined();
    const asset = await server.fetch(script!);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect((await server.fetch('/docs')).status).toBe(200);
    const document = await server.fetch('/docs/openapi.json');
    expect(document.status).toBe(200);
    expect(((await document.json()) as { openapi: string }).openapi).toMatch(/^3\./);
  });

  it(
    'runs the whole flow through the CLI; permissions and revocation apply to the running server at once',
    { timeout: 60_000 },
    async () => {
      const owner = await cliJson<{ id: string; email: string }>(
        ['user', 'create', '--email', 'owner@example.com', '--password-stdin'],
        env,
        `${PASSWORD}\n`,
      );
      expect(owner.email).toBe('owner@example.com');
      const workspace = await cliJson<Workspace>(
        ['workspace', 'create', '--name', 'E2E Site', '--owner', 'owner@example.com'],
        env,
      );
      expect(workspace).toMatchObject({ slug: 'e2e-site', ownerUserId: owner.id });

      await cliJson(['user', 'create', '--email', 'editor@example.com', '--password', PASSWORD], env);
      const editor = await cliJson<Member>(
        [
          'member',
          'add',
          '--workspace',
          workspace.slug,
          '--email',
          'editor@example.com',
          '--permissions',
          'posts:read,api-keys:read',
        ],
        env,
      );
      expect(editor.permissions).toEqual(['posts:read', 'api-keys:read']);
      const editorKey = await cliJson<Key>(
        ['key', 'create', '--workspace', workspace.slug, '--email', 'editor@example.com', '--name', 'Editor build'],
        env,
      );
      expect(editorKey.key).toMatch(/^quire_live_/);

      const allowed = await listKeys(editorKey.key);
      expect(allowed.status).toBe(200);
      const listed = (await allowed.json()) as { data: Array<{ id: string }> };
      expect(listed.data.map((k) => k.id)).toContain(editorKey.id);
      expect(JSON.stringify(listed)).not.toContain(editorKey.key);

      await cliJson(['user', 'create', '--email', 'writer@example.com', '--password', PASSWORD], env);
      await cliJson(
        ['member', 'add', '--workspace', workspace.id, '--email', 'writer@example.com', '--permissions', 'posts:read'],
        env,
      );
      const writerKey = await cliJson<Key>(
        ['key', 'create', '--workspace', workspace.id, '--email', 'writer@example.com', '--name', 'Writer'],
        env,
      );
      expect((await listKeys(writerKey.key)).status).toBe(403);

      const setPermissions = (list: string) =>
        cliJson<Member>(
          [
            'member',
            'set-permissions',
            '--workspace',
            workspace.slug,
            '--email',
            'editor@example.com',
            '--permissions',
            list,
          ],
          env,
        );
      expect((await setPermissions('posts:read')).permissions).toEqual(['posts:read']);
      expect((await listKeys(editorKey.key)).status).toBe(403);
      await setPermissions('posts:read,api-keys:read');
      expect((await listKeys(editorKey.key)).status).toBe(200);

      const revoked = await cliJson<{ id: string; status: string }>(
        ['key', 'revoke', '--workspace', workspace.slug, '--id', editorKey.id],
        env,
      );
      expect(revoked).toMatchObject({ id: editorKey.id, status: 'Revoked' });
      const refused = await listKeys(editorKey.key);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    },
  );

  it('every command with --json prints exactly one JSON document and nothing else', { timeout: 60_000 }, async () => {
    const results: Array<[string, CliResult]> = [];
    const run = async (args: string[], stdin?: string) => {
      const result = await cli([...args, '--json'], env, stdin);
      results.push([args.slice(0, 2).join(' '), result]);
      return result.code === 0 ? (JSON.parse(result.stdout) as Record<string, unknown>) : {};
    };

    await run(['migrate']);
    await run(['user', 'create', '--email', 'json-a@example.com', '--password-stdin'], `${PASSWORD}\n`);
    await run(['user', 'create', '--email', 'json-b@example.com', '--password', PASSWORD]);
    const workspace = await run(['workspace', 'create', '--name', 'JSON Only', '--owner', 'json-a@example.com']);
    const slug = String(workspace.slug);
    await run(['member', 'add', '--workspace', slug, '--email', 'json-b@example.com', '--permissions', 'posts:read']);
    await run(['member', 'set-permissions', '--workspace', slug, '--email', 'json-b@example.com', '--permissions', '']);
    const key = await run([
      'key',
      'create',
      '--workspace',
      slug,
      '--email',
      'json-a@example.com',
      '--name',
      'Build',
      '--expires-at',
      '2099-01-01T00:00:00Z',
    ]);
    await run(['key', 'list', '--workspace', slug]);
    await run(['key', 'revoke', '--workspace', slug, '--id', String(key.id)]);
    await run(['workspace', 'transfer', '--workspace', slug, '--to', 'json-b@example.com']);
    await run(['member', 'remove', '--workspace', slug, '--email', 'json-a@example.com']);

    for (const [command, result] of results) {
      expect(result.code, `${command}: ${result.stderr}`).toBe(0);
      expect(result.stderr, command).toBe('');
      expect(
        result.stdout.endsWith('\n') && result.stdout.indexOf('\n') === result.stdout.length - 1,
        `${command} prints one line`,
      ).toBe(true);
      expect(() => JSON.parse(result.stdout), command).not.toThrow();
    }
    expect(results.map(([command]) => command)).toEqual([
      'migrate',
      'user create',
      'user create',
      'workspace create',
      'member add',
      'member set-permissions',
      'key create',
      'key list',
      'key revoke',
      'workspace transfer',
      'member remove',
    ]);
  });

  it('a failing command exits non-zero with one line on stderr', { timeout: 60_000 }, async () => {
    const failures: Array<[string, string[], string | undefined]> = [
      ['unknown workspace', ['key', 'list', '--workspace', 'no-such-workspace', '--json'], undefined],
      ['unknown user', ['workspace', 'create', '--name', 'X', '--owner', 'nobody@example.com', '--json'], undefined],
      ['missing flag', ['workspace', 'create', '--name', 'X', '--json'], undefined],
      ['unknown flag', ['key', 'list', '--workspace', 'x', '--colour', '--json'], undefined],
      ['unknown command', ['frobnicate', '--json'], undefined],
      [
        'unknown permission',
        ['member', 'add', '--workspace', 'x', '--email', 'a@example.com', '--permissions', 'posts:delete'],
        undefined,
      ],
      [
        'both password flags',
        ['user', 'create', '--email', 'c@example.com', '--password', PASSWORD, '--password-stdin'],
        PASSWORD,
      ],
      ['short password', ['user', 'create', '--email', 'c@example.com', '--password-stdin', '--json'], 'short\n'],
      [
        'duplicate user',
        ['user', 'create', '--email', 'owner@example.com', '--password', PASSWORD, '--json'],
        undefined,
      ],
    ];
    for (const [what, args, stdin] of failures) {
      const result = await cli(args, env, stdin);
      expect(oneLineFailure(result), `${what}: ${JSON.stringify(result)}`).toBe(true);
      expect(result.stderr, what).toMatch(/^quire: /);
      if (what === 'unknown command') expect(result.stderr).toContain('unknown command "frobnicate";');
    }
  });

  it('a bad configuration value stops serve with a one-line message naming the variable', async () => {
    const bad = tempDir();
    try {
      const cases: Array<[string, Record<string, string>]> = [
        ['PORT', { PORT: 'abc' }],
        ['QUIRE_MASTER_KEY', { QUIRE_MASTER_KEY: 'short' }],
        ['DATABASE_URL', { DATABASE_URL: 'mysql://localhost/quire' }],
        ['QUIRE_RATE_LIMIT_MAX', { QUIRE_RATE_LIMIT_MAX: '0' }],
      ];
      for (const [variable, values] of cases) {
        // Bounded: a regression that accepts the value would otherwise leave a server listening.
        const result = await cli(['serve'], { QUIRE_DATA_DIR: bad.dataDir, ...values }, undefined, {
          timeoutMs: 10_000,
        });
        expect(oneLineFailure(result), `${variable}: ${JSON.stringify(result)}`).toBe(true);
        expect(result.stderr).toContain(variable);
      }
      // Validation comes before anything touches the disk.
      expect(fs.existsSync(bad.dataDir)).toBe(false);
    } finally {
      bad.remove();
    }
  });

  it('quire migrate applies the schema once; a second run applies nothing', async () => {
    const fresh = tempDir();
    try {
      const first = await cli(['migrate', '--json'], { QUIRE_DATA_DIR: fresh.dataDir });
      expect(first.code, first.stderr).toBe(0);
      expect((JSON.parse(first.stdout) as { applied: string[] }).applied.length).toBeGreaterThan(0);
      const second = await cli(['migrate', '--json'], { QUIRE_DATA_DIR: fresh.dataDir });
      expect(second).toEqual({ code: 0, stdout: '{"applied":[]}\n', stderr: '' });
    } finally {
      fresh.remove();
    }
  });

  it('warns at start when QUIRE_PASSWORD_COST is below the production cost, and not at the default', async () => {
    const warning = 'QUIRE_PASSWORD_COST is below the production cost';
    // This server runs at the tests' cost (TEST_PASSWORD_COST).
    expect(server.stdout()).toContain(warning);
    const other = tempDir();
    const production = await startServer({ QUIRE_DATA_DIR: other.dataDir, QUIRE_PASSWORD_COST: '17' });
    try {
      expect((await production.fetch('/healthz')).status).toBe(200);
      expect(production.stdout()).not.toContain(warning);
    } finally {
      await production.stop();
      other.remove();
    }
  });

  it('SIGTERM closes the server gracefully: exit code 0', async () => {
    expect((await server.fetch('/healthz')).status).toBe(200);
    const exit = await server.stop();
    expect(exit, server.stderr()).toEqual({ code: 0, signal: null });
    expect(server.stdout()).toContain('closing: finishing in-flight requests');
    expect(server.stderr()).toBe('');
  });
});
