import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { buildNeeded } from '../../bench/dataset.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

/** A checkout with one source file and, when given, a build, each written at its own time (seconds). */
function checkout({ source, built }: { source: number; built?: number }): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-build-needed-'));
  roots.push(root);
  const write = (file: string, at: number) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), '');
    fs.utimesSync(path.join(root, file), at, at);
  };
  write('src/modules/posts/posts.service.ts', source);
  if (built !== undefined) {
    write('dist/bundle/cli.js', built);
    write('dist/cli/main.js', built);
  }
  return root;
}

it('builds a checkout without dist/', () => {
  expect(buildNeeded(checkout({ source: 1_000 }))).toBe('missing');
});

it('rebuilds when a source file is newer than the compiled server, as after a checkout of src/', () => {
  expect(buildNeeded(checkout({ source: 2_000, built: 1_000 }))).toBe('stale');
});

it('measures a build newer than every source file as it is', () => {
  expect(buildNeeded(checkout({ source: 1_000, built: 2_000 }))).toBeNull();
});
