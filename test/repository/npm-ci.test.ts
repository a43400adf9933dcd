import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { baseEnv, ROOT } from '../e2e/helpers.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-npm-ci-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it(`npm ci warns about nothing on this Node (${process.version}): no EBADENGINE, no deprecation`, async () => {
  // The manifests and the lockfile are all npm ci reads to decide; a dry run checks every package's engines
  // without downloading or building anything.
  const workspaces = fs.readdirSync(path.join(ROOT, 'packages')).map((name) => `packages/${name}/package.json`);
  for (const file of ['package.json', 'package-lock.json', ...workspaces]) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.copyFileSync(path.join(ROOT, file), path.join(dir, file));
  }
  const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    execFile(
      'npm',
      ['ci', '--dry-run', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'],
      // npm's own HOME (its cache) and PATH; nothing else of the shell.
      { cwd: dir, env: baseEnv(), timeout: 120_000, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
      (error, _stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stderr }),
    );
  });
  expect(stderr).toBe('');
  expect(code).toBe(0);
});
