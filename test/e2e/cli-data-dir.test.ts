import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../helpers/database.js';
import {
  baseEnv,
  cli,
  cliJson,
  eventually,
  EXTERNAL,
  oneLineFailure,
  ROOT,
  startServer,
  tempDir,
  type Env,
  type ServerProcess,
} from './helpers.js';

const PASSWORD = 'correct horse battery staple';
/** Accepted by the test server's trust authentication, so a URL can carry it and the message must hide it. */
const DATABASE_PASSWORD = 's3cret-Pa55word';

/** The environment of a fresh database per dialect: SQLite in a data dir, or PostgreSQL with a password in its URL. */
async function freshEnv(database: TestDatabase): Promise<{ env: Env; where: string }> {
  if (!database.databaseUrl) return { env: { QUIRE_DATA_DIR: database.dataDir }, where: database.dataDir };
  const url = new URL(database.databaseUrl);
  url.username = 'postgres';
  url.password = DATABASE_PASSWORD;
  return {
    env: {
      QUIRE_DATA_DIR: database.dataDir,
      DATABASE_URL: url.toString(),
      QUIRE_MASTER_KEY: crypto.randomBytes(32).toString('base64'),
    },
    where: url.toString().replace(`:${DATABASE_PASSWORD}@`, ':***@'),
  };
}

describe('quire and a data dir that does not exist', () => {
  const dir = tempDir('quire-cli-data-dir-');
  afterAll(() => dir.remove());

  it('a command that reads data refuses, names the dir, and creates nothing', async () => {
    for (const args of [
      ['key', 'list', '--workspace', 'acme-blog'],
      ['workspace', 'create', '--name', 'Acme', '--owner', 'you@example.com', '--json'],
      ['seed', '--workspace', 'acme-blog'],
    ]) {
      const result = await cli(args, { QUIRE_DATA_DIR: dir.dataDir });
      expect(oneLineFailure(result), JSON.stringify(result)).toBe(true);
      expect(result.stderr).toBe(
        `quire: there is no data dir at ${dir.dataDir} (QUIRE_DATA_DIR): set QUIRE_DATA_DIR to the server's, ` +
          'or start with "npm start" or "quire user create", which create it\n',
      );
    }
    expect(fs.existsSync(dir.dataDir)).toBe(false);
  });

  it('quire user create begins one, and says where', async () => {
    const result = await cli(
      ['user', 'create', '--email', 'you@example.com', '--password-stdin', '--json'],
      {
        QUIRE_DATA_DIR: dir.dataDir,
      },
      `${PASSWORD}\n`,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ email: 'you@example.com' });
    expect(result.stderr).toBe(`quire: created a new data dir at ${dir.dataDir} (QUIRE_DATA_DIR)\n`);
    expect(fs.existsSync(path.join(dir.dataDir, 'master.key'))).toBe(true);
    // From then on it is the data dir of every command, which no longer mentions it.
    const workspace = await cli(['workspace', 'create', '--name', 'Acme Blog', '--owner', 'you@example.com'], {
      QUIRE_DATA_DIR: dir.dataDir,
    });
    expect(workspace).toMatchObject({ code: 0, stderr: '' });
    // Many seeded workspaces at once, each key printed once beside its workspace.
    const seeded = await cli(
      ['seed', 'workspaces', '--count', '2', '--posts', '1', '--owner', 'you@example.com', '--name', 'Load'],
      { QUIRE_DATA_DIR: dir.dataDir },
    );
    expect(seeded.code, seeded.stderr).toBe(0);
    // After the progress line a pipe gets when the seed is done.
    const lines = seeded.stdout.trim().split('\n');
    const heading = lines.indexOf('Seeded 2 workspaces; each key is shown only now:');
    expect(heading, seeded.stdout).toBeGreaterThanOrEqual(0);
    expect(lines.slice(heading + 1)).toEqual([
      expect.stringMatching(/^load-1 {2}[0-9a-f-]{36} {2}quire_live_\w+$/),
      expect.stringMatching(/^load-2 {2}[0-9a-f-]{36} {2}quire_live_\w+$/),
    ]);
  });
});

describeEachDialect('quire says which data dir or database it looked in when it finds nothing', (dialect) => {
  let database: TestDatabase;
  let env: Env;
  let where: string;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    ({ env, where } = await freshEnv(database));
    await cliJson(['migrate'], env);
  });
  afterAll(() => database?.drop());

  it('names the workspace or user it did not find, and where it looked, without a password', async () => {
    const location = dialect === 'sqlite' ? `${where} (QUIRE_DATA_DIR)` : `${where} (DATABASE_URL)`;
    const cases: Array<[string[], string]> = [
      [['key', 'list', '--workspace', 'acme-blog'], `Workspace acme-blog not found in ${location}`],
      [
        ['workspace', 'create', '--name', 'X', '--owner', 'nobody@example.com'],
        `User nobody@example.com not found in ${location}`,
      ],
      [['seed', '--workspace', 'acme-blog', '--json'], `Workspace acme-blog not found in ${location}`],
    ];
    for (const [args, message] of cases) {
      const result = await cli(args, env);
      expect(oneLineFailure(result), JSON.stringify(result)).toBe(true);
      expect(result.stderr).toBe(`quire: ${message}\n`);
      expect(result.stderr).not.toContain(DATABASE_PASSWORD);
    }
  });
});

/** Runs a line the banner printed through the shell, as a person pasting it would, in the checkout. */
function runPrinted(
  line: string,
  secrets: Record<string, string>,
  stdin = '',
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let command = line.replace(/\bnpx quire\b/, `"${process.execPath}" bin/quire.js`);
  for (const [placeholder, value] of Object.entries(secrets)) command = command.replaceAll(placeholder, value);
  return new Promise((resolve) => {
    const child = execFile(
      '/bin/sh',
      ['-c', command],
      // Nothing of the server's environment: what the line says is all the command gets.
      { cwd: ROOT, env: baseEnv(), timeout: 30_000, encoding: 'utf8' },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
    child.stdin?.end(stdin);
  });
}

describeEachDialect(
  'the start banner’s commands carry the server’s data dir and database, and work as printed',
  (dialect) => {
    let database: TestDatabase;
    let env: Env;
    let server: ServerProcess;

    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      ({ env } = await freshEnv(database));
      server = await startServer(env);
    });
    afterAll(async () => {
      await server?.stop().catch(() => undefined);
      await database?.drop();
    });

    it('prints the variables that differ from the defaults, secrets as placeholders, and the commands reach this server', async () => {
      await eventually(() => server.stdout().includes('key create'), 'the first-start hint on stdout');
      const printed = server
        .stdout()
        .split('\n')
        .filter((line) => line.includes('npx quire'))
        .map((line) => line.trim());
      expect(printed).toHaveLength(3);
      const prefix =
        dialect === 'sqlite'
          ? `QUIRE_DATA_DIR=${database.dataDir} npx quire `
          : `QUIRE_DATA_DIR=${database.dataDir} DATABASE_URL='${env.DATABASE_URL!.replace(`:${DATABASE_PASSWORD}@`, ':<password>@')}' QUIRE_MASTER_KEY='<the same key>' npx quire `;
      for (const line of printed) expect(line.startsWith(prefix), line).toBe(true);
      expect(server.stdout()).not.toContain(DATABASE_PASSWORD);

      const secrets = { '<password>': DATABASE_PASSWORD, '<the same key>': env.QUIRE_MASTER_KEY ?? '' };
      const [userCreate, workspaceCreate, keyCreate] = printed as [string, string, string];
      for (const [line, stdin] of [
        [userCreate, `${PASSWORD}\n`],
        [workspaceCreate, ''],
      ] as const) {
        const result = await runPrinted(line, secrets, stdin);
        expect(result, line).toMatchObject({ code: 0, stderr: '' });
      }
      const created = await runPrinted(keyCreate, secrets);
      expect(created.code, created.stderr).toBe(0);
      const key = created.stdout.split('\n')[0]!;

      // The key is in the server's database, encrypted with the server's master key: it works, and reveals.
      const keys = await server.fetch(`${EXTERNAL}/api-keys`, { headers: { 'X-API-Key': key } });
      expect(keys.status).toBe(200);
      const [listed] = ((await keys.json()) as { data: Array<{ id: string }> }).data;
      const revealed = await server.fetch(`${EXTERNAL}/api-keys/${listed!.id}/reveal`, {
        method: 'POST',
        headers: { 'X-API-Key': key },
      });
      expect(((await revealed.json()) as { key: string }).key).toBe(key);
    });
  },
);
