import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILD_PARTS, buildNeeded, type BuildPart } from '../../scripts/build-needed.mjs';
import { baseEnv, ROOT } from '../e2e/helpers.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

function write(root: string, file: string, at: number, content = ''): void {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), content);
  fs.utimesSync(path.join(root, file), at, at);
}

/**
 * A checkout whose every part has one source file written at `source` and, unless left out, a build at `built`
 * (seconds).
 */
function checkout({ source, built, unbuilt = [] }: { source: number; built: number; unbuilt?: string[] }): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-build-needed-'));
  roots.push(root);
  for (const part of BUILD_PARTS) {
    write(root, path.join(part.sources[0]!, 'source.ts'), source);
    if (!unbuilt.includes(part.name)) for (const output of part.outputs) write(root, output, built);
    if (!unbuilt.includes(part.name)) write(root, part.stamp, built);
  }
  return root;
}

const partNames = BUILD_PARTS.map((part) => part.name);

describe('buildNeeded: which part of npm run build is missing or older than its sources', () => {
  it.each(partNames)('builds the %s when it has never been built', (name) => {
    expect(buildNeeded(checkout({ source: 1_000, built: 2_000, unbuilt: [name] }), name)).toBe('missing');
  });

  it.each(partNames)('rebuilds the %s when a source of it is newer than its build, as after a checkout', (name) => {
    const root = checkout({ source: 1_000, built: 2_000 });
    const part = BUILD_PARTS.find((candidate) => candidate.name === name)!;
    write(root, path.join(part.sources[0]!, 'source.ts'), 3_000);
    expect(buildNeeded(root, name)).toBe('stale');
    // The other parts stay as they are, unless they read that source too (the server and the dashboard build
    // from @quire/blocks' sources).
    for (const other of BUILD_PARTS.filter((candidate) => candidate.name !== name))
      expect(buildNeeded(root, other.name), other.name).toBe(other.sources.includes(part.sources[0]!) ? 'stale' : null);
  });

  it.each(partNames)('leaves the %s alone when its build is newer than every source', (name) => {
    expect(buildNeeded(checkout({ source: 1_000, built: 2_000 }), name)).toBeNull();
  });
});

interface Run {
  code: number | null;
  stdout: string;
}

/**
 * `npm start`'s build step (scripts/build-if-needed.mjs, copied) in a checkout whose npm scripts only note
 * in built.log which part they were asked to build.
 */
function buildIfNeeded(root: string): Promise<Run> {
  fs.mkdirSync(path.join(root, 'scripts'), { recursive: true });
  for (const file of ['build-needed.mjs', 'build-if-needed.mjs'])
    fs.copyFileSync(path.join(ROOT, 'scripts', file), path.join(root, 'scripts', file));
  const scripts = Object.fromEntries(
    BUILD_PARTS.map((part: BuildPart) => [
      part.script,
      `node -e "require('node:fs').appendFileSync('built.log', '${part.name}\\n')"`,
    ]),
  );
  fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'checkout', private: true, scripts }));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(root, 'scripts', 'build-if-needed.mjs')],
      { cwd: root, env: baseEnv(), timeout: 60_000, encoding: 'utf8' },
      (error, stdout) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout }),
    );
  });
}

const built = (root: string) =>
  fs.existsSync(path.join(root, 'built.log'))
    ? fs.readFileSync(path.join(root, 'built.log'), 'utf8').split('\n').filter(Boolean)
    : [];

describe('npm start builds only what is missing or stale', () => {
  it('starts at once when every part is built and current, as after npm ci', async () => {
    const root = checkout({ source: 1_000, built: 2_000 });
    expect(await buildIfNeeded(root)).toEqual({ code: 0, stdout: '' });
    expect(built(root)).toEqual([]);
  });

  it('builds the one part whose sources changed, or whose build is missing, and says why', async () => {
    const root = checkout({ source: 1_000, built: 2_000, unbuilt: ['client'] });
    write(root, 'dashboard/src/source.ts', 3_000);
    const run = await buildIfNeeded(root);
    expect(run.code).toBe(0);
    expect(built(root)).toEqual(['dashboard', 'client']);
    expect(run.stdout).toBe(
      'The dashboard has changed since it was built: npm run build:dashboard\n' +
        'The client is not built yet: npm run build:client\n',
    );
  });

  it('rebuilds @quire/blocks first after a change to it, then the server and the dashboard built from it', async () => {
    const root = checkout({ source: 1_000, built: 2_000 });
    write(root, 'packages/blocks/src/source.ts', 3_000);
    expect((await buildIfNeeded(root)).code).toBe(0);
    expect(built(root)).toEqual(['blocks package', 'server', 'dashboard']);
  });
});
