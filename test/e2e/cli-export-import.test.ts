import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../helpers/database.js';
import { rewriteArchive } from '../helpers/operate.js';
import { cli, cliJson, oneLineFailure, tempDir, type Env } from './helpers.js';

/*
 * `quire seed`, `quire export` and `quire import` as an operator runs them: progress as plain lines when
 * stdout is not a terminal (here, a pipe), the final document alone with --json, one line on stderr when
 * refused.
 */
describeEachDialect('quire export and quire import on the command line', (dialect) => {
  const dir = tempDir('quire-cli-export-');
  const file = path.join(dir.root, 'acme.quire.tgz');
  const databases: TestDatabase[] = [];
  let source: Env;
  let target: Env;

  async function installation(name: string): Promise<Env> {
    const env: Env = { QUIRE_DATA_DIR: path.join(dir.root, name) };
    if (dialect === 'postgres') {
      const database = await createTestDatabase('postgres');
      databases.push(database);
      env.DATABASE_URL = database.databaseUrl!;
    }
    await cliJson(['user', 'create', '--email', 'owner@example.com', '--password-stdin'], env, 'long password 1\n');
    return env;
  }

  beforeAll(async () => {
    source = await installation('source');
    target = await installation('target');
    await cliJson(['workspace', 'create', '--name', 'Acme', '--owner', 'owner@example.com'], source);
  });
  afterAll(async () => {
    for (const database of databases) await database.drop();
    dir.remove();
  });

  it('seed and export print plain progress lines, then what they did', async () => {
    const seeded = await cli(['seed', '--workspace', 'acme', '--posts', '30'], source);
    expect(seeded.code, seeded.stderr).toBe(0);
    expect(seeded.stdout).toMatch(/^seed acme: 30\/30 posts \(100%\), [\d,]+ posts\/s, in [\d.]+ s\n/);
    expect(seeded.stdout).toMatch(/Seeded workspace .* 30 posts/);

    const exported = await cli(['export', '--workspace', 'acme', '--out', file], source);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toBe('');
    const [progress, summary] = exported.stdout.trimEnd().split('\n');
    expect(progress).toMatch(/^export acme: (\d+)\/\1 rows \(100%\), [\d,]+ rows\/s, in [\d.]+ s$/);
    expect(summary).toMatch(
      new RegExp(`^Exported workspace acme to ${file} \\([\\d.]+ MB\\) in [\\d.]+ s: .*30 posts`),
    );
  });

  it('import --dry-run says what it would write; --json prints the final document alone', async () => {
    const dry = await cli(['import', file, '--owner', 'owner@example.com', '--dry-run'], target);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^Dry run: nothing was written\. The import would write into a new workspace acme:\n/m);
    expect(dry.stdout).toMatch(/rows: .*30 posts/);

    const imported = await cli(['import', file, '--owner', 'owner@example.com', '--json'], target);
    expect(imported.code, imported.stderr).toBe(0);
    const document = JSON.parse(imported.stdout) as {
      dryRun: boolean;
      plan: { tables: { posts: { create: number } } };
    };
    expect(document.dryRun).toBe(false);
    expect(document.plan.tables.posts.create).toBe(30);
    const keys = await cliJson<unknown[]>(['key', 'list', '--workspace', 'acme'], target);
    expect(keys).toEqual([]);
  });

  it('refuses with one line: a non-empty workspace, a damaged archive, no FILE', async () => {
    const again = await cli(['import', file], target);
    expect(oneLineFailure(again), JSON.stringify(again)).toBe(true);
    expect(again.stderr).toMatch(
      /^quire: Workspace acme is not empty \(.*\): import into an empty workspace, or add --merge/,
    );

    const merged = await cliJson<{ plan: { tables: { posts: { create: number; present: number } } } }>(
      ['import', file, '--merge'],
      target,
    );
    expect(merged.plan.tables.posts).toMatchObject({ create: 0, present: 30 });

    const damaged = path.join(dir.root, 'damaged.tgz');
    const bytes = fs.readFileSync(file);
    fs.writeFileSync(damaged, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const refused = await cli(['import', damaged, '--merge'], target);
    expect(oneLineFailure(refused), JSON.stringify(refused)).toBe(true);
    expect(refused.stderr).toMatch(new RegExp(`^quire: ${damaged} is damaged: `));

    // A tag name past the API's limit, the trailer recomputed: refused by name, whatever the output mode.
    const longName = path.join(dir.root, 'long-tag-name.tgz');
    let tagId = '';
    await rewriteArchive(file, longName, (entries) =>
      entries.map((entry) => {
        if (!entry.name.startsWith('tables/tags/')) return entry;
        const [first, ...rest] = entry.body.toString().split('\n');
        const tag = JSON.parse(first!) as { id: string; name: string };
        tagId = tag.id;
        return { ...entry, body: Buffer.from([JSON.stringify({ ...tag, name: 'x'.repeat(101) }), ...rest].join('\n')) };
      }),
    );
    for (const mode of [[], ['--dry-run'], ['--json']]) {
      const tooLong = await cli(['import', longName, '--merge', ...mode], target);
      expect(oneLineFailure(tooLong), JSON.stringify(tooLong)).toBe(true);
      expect(tooLong.stderr).toBe(
        `quire: ${longName} holds what the API would refuse: tags row ${tagId}, field name must NOT have more than 100 characters\n`,
      );
    }

    const usage = await cli(['import', '--merge'], target);
    expect(oneLineFailure(usage)).toBe(true);
    expect(usage.stderr).toMatch(/^quire: missing FILE; usage: quire import FILE/);
  });
});
