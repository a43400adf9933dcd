import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../helpers/database.js';
import { cli, cliJson, oneLineFailure, tempDir, type Env } from './helpers.js';

const FIXTURES = path.resolve('test/fixtures/imports');

interface Report {
  dryRun: boolean;
  counts: Record<string, Record<string, number>>;
  items: Array<{ type: string; title: string; action: string; message?: string }>;
}

/*
 * `quire import ghost|wordpress|markdown` as an operator runs them: progress lines on a pipe, the report, --json,
 * --dry-run, --strict and --report, and a one-line refusal of what cannot be read.
 */
describeEachDialect('quire import from other systems', (dialect) => {
  const dir = tempDir('quire-cli-imports-');
  const databases: TestDatabase[] = [];
  let env: Env;

  beforeAll(async () => {
    env = { QUIRE_DATA_DIR: path.join(dir.root, 'data') };
    if (dialect === 'postgres') {
      const database = await createTestDatabase('postgres');
      databases.push(database);
      env.DATABASE_URL = database.databaseUrl!;
    }
    await cliJson(['user', 'create', '--email', 'owner@example.com', '--password-stdin'], env, 'long password 1\n');
    for (const name of ['Blog', 'Strict'])
      await cliJson(['workspace', 'create', '--name', name, '--owner', 'owner@example.com'], env);
    await cliJson(['workspace', 'settings', '--workspace', 'blog', '--post-url-pattern', '/blog/{slug}'], env);
  });
  afterAll(async () => {
    for (const database of databases) await database.drop();
    dir.remove();
  });

  it('a dry run prints what it would do and writes nothing; the import then does it, and a re-run changes nothing', async () => {
    const file = path.join(FIXTURES, 'wordpress/site-1.2.xml');
    const dry = await cli(['import', 'wordpress', file, '--workspace', 'blog', '--dry-run'], env);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^dry run of wordpress import: 7\/7 posts and pages \(100%\)/);
    expect(dry.stdout).toMatch(/Dry run of a wordpress import from https:\/\/example\.com: nothing was written/);
    expect(dry.stdout).toMatch(/^ {2}post: 5 created$/m);

    const reportFile = path.join(dir.root, 'report.json');
    const done = await cli(['import', 'wordpress', file, '--workspace', 'blog', '--report', reportFile], env);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(/^Imported from wordpress \(https:\/\/example\.com\) in [\d.]+ s:$/m);
    expect(done.stdout).toMatch(/^post 11 "Bad date": failed: its date "2019-13-45 99:00:00" is not a date$/m);
    const report = JSON.parse(fs.readFileSync(reportFile, 'utf8')) as Report;
    expect(report.counts.post).toEqual({ created: 5 });
    expect(report.counts.redirect?.created).toBeGreaterThan(0);

    const again = await cliJson<Report>(['import', 'wordpress', file, '--workspace', 'blog'], env);
    expect(again.counts.post).toEqual({ unchanged: 5 });
  });

  it('--strict writes nothing when an item would fail', async () => {
    const file = path.join(FIXTURES, 'wordpress/site-1.2.xml');
    const strict = await cli(['import', 'wordpress', file, '--workspace', 'strict', '--strict'], env);
    expect(oneLineFailure(strict), strict.stderr).toBe(true);
    expect(strict.stderr).toMatch(
      /^quire: --strict: 1 item\(s\) would fail, so nothing was written\. post 11 "Bad date": its date/,
    );
    const dry = await cliJson<Report>(['import', 'wordpress', file, '--workspace', 'strict', '--dry-run'], env);
    // Still nothing there: the dry run would create every post.
    expect(dry.counts.post).toEqual({ created: 5 });
  });

  it('imports a Markdown folder, and a Ghost export', async () => {
    const markdown = await cliJson<Report>(
      ['import', 'markdown', path.join(FIXTURES, 'markdown/astro'), '--workspace', 'blog'],
      env,
    );
    expect(markdown.counts.post?.created).toBeGreaterThan(0);
    const ghost = await cliJson<Report>(
      ['import', 'ghost', path.join(FIXTURES, 'ghost/ghost5-export.json'), '--workspace', 'blog'],
      env,
    );
    expect(ghost.counts.post?.created).toBeGreaterThan(0);
  });

  it('refuses in one line what it cannot read', async () => {
    const old = await cli(
      ['import', 'ghost', path.join(FIXTURES, 'ghost/ghost3-export.json'), '--workspace', 'blog'],
      env,
    );
    expect(oneLineFailure(old), old.stderr).toBe(true);
    expect(old.stderr).toMatch(/Ghost 3\.40\.0 export: Ghost 4, 5 and 6 exports are read/);
    const notWxr = await cli(
      ['import', 'wordpress', path.join(FIXTURES, 'ghost/redirects.yaml'), '--workspace', 'blog'],
      env,
    );
    expect(oneLineFailure(notWxr), notWxr.stderr).toBe(true);
    const missing = await cli(['import', 'markdown', path.join(dir.root, 'nowhere'), '--workspace', 'blog'], env);
    expect(oneLineFailure(missing), missing.stderr).toBe(true);
    expect(missing.stderr).toMatch(/nowhere does not exist or cannot be read/);
    const noWorkspace = await cli(['import', 'markdown', FIXTURES], env);
    expect(noWorkspace.code).toBe(2);
    expect(noWorkspace.stderr).toMatch(/missing --workspace/);
  });
});
