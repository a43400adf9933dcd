// Which parts of `npm run build` are missing or older than their sources. `npm start` builds only those
// (scripts/build-if-needed.mjs); the benchmark rebuilds a stale server before it measures (bench/dataset.ts,
// which imports this file as `#build-needed`, the package.json `imports` entry, from src and dist alike).
import fs from 'node:fs';
import path from 'node:path';

/**
 * The parts of `npm run build`: the npm script that builds each, the files and folders it reads, the files it
 * must have written, and `stamp`, the one it writes last (tsc leaves an unchanged file's output as it was).
 */
export const BUILD_PARTS = [
  // First: the server's build compiles against its declarations and bundles its modules.
  {
    name: 'blocks package',
    script: 'build:blocks',
    sources: ['packages/blocks/src', 'packages/blocks/tsconfig.json', 'packages/blocks/scripts'],
    outputs: ['packages/blocks/dist/index.js', 'packages/blocks/dist/index.d.ts'],
    // Its build empties dist/ first, so every file in it is as new as the build.
    stamp: 'packages/blocks/dist/index.js',
  },
  {
    name: 'server',
    script: 'build:server',
    sources: ['src', 'tsconfig.json', 'tsconfig.build.json', 'scripts/bundle.mjs', 'packages/blocks/src'],
    outputs: ['dist/cli/main.js', 'dist/bundle/cli.js'],
    stamp: 'dist/bundle/cli.js',
  },
  {
    name: 'dashboard',
    script: 'build:dashboard',
    sources: [
      'dashboard/src',
      'dashboard/public',
      'dashboard/index.html',
      'dashboard/vite.config.ts',
      // Bundled from its sources (dashboard/vite.config.ts).
      'packages/blocks/src',
    ],
    outputs: ['dashboard/dist/index.html'],
    stamp: 'dashboard/dist/index.html',
  },
  {
    name: 'client',
    script: 'build:client',
    sources: ['packages/client/src', 'packages/client/tsconfig.json', 'packages/client/scripts'],
    outputs: ['packages/client/dist/index.js', 'packages/client/dist/cjs/index.js'],
    stamp: 'packages/client/dist/cjs/package.json',
  },
];

/**
 * The newest modification time of `target` (a file, or the files under a folder), in ms since the epoch; 0 when
 * none.
 */
export function newestMtimeMs(target, skip = []) {
  let newest = 0;
  const walk = (current) => {
    const stat = fs.statSync(current, { throwIfNoEntry: false });
    if (!stat) return;
    if (!stat.isDirectory()) {
      newest = Math.max(newest, stat.mtimeMs);
      return;
    }
    if (skip.includes(current)) return;
    for (const entry of fs.readdirSync(current)) walk(path.join(current, entry));
  };
  walk(target);
  return newest;
}

/**
 * Why a part of `root` needs building, or null: an output is missing (a fresh clone before `npm ci` ran
 * prepare, say), or a source is newer than the build (a `git checkout` or an edit since).
 */
export function buildNeeded(root, name = 'server') {
  const part = BUILD_PARTS.find((candidate) => candidate.name === name);
  if (!part) throw new Error(`no build part named ${name}`);
  if (part.outputs.some((output) => !fs.existsSync(path.join(root, output)))) return 'missing';
  const built = fs.statSync(path.join(root, part.stamp)).mtimeMs;
  const newest = Math.max(...part.sources.map((source) => newestMtimeMs(path.join(root, source))));
  return newest > built ? 'stale' : null;
}
