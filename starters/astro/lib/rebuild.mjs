// @ts-check
import fs from 'node:fs';
import path from 'node:path';
import { siteEnv } from './env.mjs';
import { sync } from './sync.mjs';

/**
 * A rebuild as the webhook asks for one: sync, then build the pages into a folder of their own and swap it in
 * under `dist/client` with one rename, so the running server never serves half a build. The server's own code
 * (dist/server) stays: only content changed. A change of the site's code needs `npm run build` and a restart.
 *
 * @typedef {import('./sync.mjs').SyncReport} SyncReport
 * @param {{ full?: boolean }} [options]
 * @returns {Promise<{ sync: SyncReport, built: boolean, buildSeconds: number }>}
 */
export async function rebuild(options = {}) {
  const env = siteEnv();
  const report = await sync(options);
  const live = path.join(env.root, 'dist', 'client');
  if (!report.changed && fs.existsSync(live)) return { sync: report, built: false, buildSeconds: 0 };
  const started = performance.now();
  const builds = path.join(env.root, '.builds');
  const stamp = `${Date.now()}-${process.pid}`;
  const outDir = path.join(builds, stamp);
  process.env.ASTRO_TELEMETRY_DISABLED = '1';
  process.env.ASTRO_OUT_DIR = outDir;
  const { build } = await import('astro');
  await build({ root: env.root, outDir, logLevel: 'warn' });
  fs.rmSync(path.join(outDir, 'server'), { recursive: true, force: true });
  swapIn(live, path.join(outDir, 'client'), builds);
  prune(builds, stamp);
  return { sync: report, built: true, buildSeconds: Math.round(performance.now() - started) / 1000 };
}

/** `live` becomes a link to `next`, replaced in one rename (a first build's folder is moved aside first). */
function swapIn(/** @type {string} */ live, /** @type {string} */ next, /** @type {string} */ builds) {
  fs.mkdirSync(path.dirname(live), { recursive: true });
  const link = `${live}.next`;
  fs.rmSync(link, { force: true });
  fs.symlinkSync(next, link, 'dir');
  const current = fs.lstatSync(live, { throwIfNoEntry: false });
  if (current?.isDirectory()) fs.renameSync(live, path.join(builds, `first-${Date.now()}`));
  fs.renameSync(link, live);
}

/** The builds but the live one and the one before it (a request may still be reading it) are removed. */
function prune(/** @type {string} */ builds, /** @type {string} */ keep) {
  const names = fs.readdirSync(builds).filter((name) => name !== keep);
  const newestFirst = names.sort(
    (a, b) => fs.statSync(path.join(builds, b)).mtimeMs - fs.statSync(path.join(builds, a)).mtimeMs,
  );
  for (const name of newestFirst.slice(1)) fs.rmSync(path.join(builds, name), { recursive: true, force: true });
}
