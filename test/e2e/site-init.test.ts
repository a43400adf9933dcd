import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, cliJson, oneLineFailure, tempDir } from './helpers.js';

/*
 * `quire site init` refused in one line for each bad input, leaving nothing behind; and, with a content key made
 * already (no Quire to ask), a site that names only what it should: no build output, its own packages vendored,
 * the key in a .env only its owner reads, and the starter's own routes in the settings line it prints.
 */
describe('quire site init', () => {
  const dir = tempDir('quire-site-init-');
  const env = { QUIRE_DATA_DIR: dir.dataDir };
  const key = `quire_content_${'a1'.repeat(19)}`;
  afterAll(() => dir.remove());

  it.each([
    ['a DIR that is not empty', ['--quire-url', 'http://127.0.0.1:1', '--content-key', key], true, /is not empty/],
    ['a Quire URL that is not http', ['--quire-url', 'ftp://example.com', '--content-key', key], false, /--quire-url/],
    ['no key', ['--quire-url', 'http://127.0.0.1:1'], false, /--content-key or --api-key is required/],
    [
      'a content key of the wrong shape',
      ['--quire-url', 'http://127.0.0.1:1', '--content-key', 'nope'],
      false,
      /--content-key/,
    ],
  ])('refuses %s in one line', async (_what, flags, occupied, message) => {
    const target = path.join(dir.root, `refused-${Math.random().toString(36).slice(2)}`);
    if (occupied) {
      fs.mkdirSync(target);
      fs.writeFileSync(path.join(target, 'keep.txt'), 'mine');
    }
    const result = await cli(['site', 'init', target, ...flags], env);
    expect(oneLineFailure(result), result.stderr).toBe(true);
    expect(result.stderr).toMatch(message);
    expect(fs.existsSync(target) ? fs.readdirSync(target) : []).toEqual(occupied ? ['keep.txt'] : []);
  });

  it('makes a site with a content key: vendored packages, a private .env, the starter’s routes to set', async () => {
    const target = path.join(dir.root, 'My Site');
    const result = await cliJson<{ contentKey: string; settingsToSet: null; next: string[] }>(
      ['site', 'init', target, '--quire-url', 'http://127.0.0.1:1/', '--content-key', key],
      env,
    );
    expect(result.contentKey).toBe('given');
    expect(result.settingsToSet).toBeNull();
    expect(result.next[0]).toContain(
      "--post-url-pattern '/posts/{slug}' --page-url-pattern '/{slug}' --author-url-pattern '/authors/{slug}' " +
        "--category-url-pattern '/categories/{path}' --preview-url-pattern '/preview?type={type}&id={id}&token={token}'",
    );
    const files = fs.readdirSync(target).sort();
    expect(files).toEqual(expect.arrayContaining(['.env', '.env.example', 'README.md', 'lib', 'src', 'vendor']));
    for (const made of ['node_modules', 'dist', '.quire', '.astro', '.builds']) expect(files).not.toContain(made);
    const manifest = JSON.parse(fs.readFileSync(path.join(target, 'package.json'), 'utf8'));
    expect(manifest.name).toBe('my-site');
    expect(manifest.dependencies['@quire/blocks']).toBe('file:vendor/quire-blocks-0.1.0.tgz');
    expect(manifest.dependencies['@quire/client']).toBe('file:vendor/quire-client-0.1.0.tgz');
    expect(manifest.allowScripts).toEqual({ esbuild: false, sharp: false });
    expect(fs.readdirSync(path.join(target, 'vendor')).sort()).toEqual([
      'quire-blocks-0.1.0.tgz',
      'quire-client-0.1.0.tgz',
    ]);
    const envFile = path.join(target, '.env');
    expect(fs.statSync(envFile).mode & 0o777).toBe(0o600);
    const values = fs.readFileSync(envFile, 'utf8');
    expect(values).toMatch(/^QUIRE_URL=http:\/\/127\.0\.0\.1:1$/m);
    expect(values).toMatch(new RegExp(`^QUIRE_CONTENT_KEY=${key}$`, 'm'));
    expect(values).toMatch(/^SITE_URL=http:\/\/localhost:4321$/m);
  });
});
