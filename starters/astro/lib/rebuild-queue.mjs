// @ts-check
import { spawn } from 'node:child_process';
import path from 'node:path';
import { siteEnv } from './env.mjs';

/**
 * Rebuilds asked for by webhooks, one at a time: a request while one runs asks for one more after it, however many
 * arrive meanwhile (the next sync reads every event since the last anyway). Each runs in a process of its own, so
 * the server keeps answering while Astro builds.
 */
let running = false;
let again = false;

export function requestRebuild() {
  if (running) {
    again = true;
    return;
  }
  running = true;
  again = false;
  const env = siteEnv();
  const child = spawn(process.execPath, [path.join(env.root, 'scripts', 'rebuild.mjs')], {
    cwd: env.root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.on('exit', () => {
    running = false;
    if (again) requestRebuild();
  });
}
