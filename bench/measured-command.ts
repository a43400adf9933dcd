import { spawn } from 'node:child_process';
import { BIN, ROOT, baseEnv, binNodeFlags, type Env } from './processes.js';
import { UsageWindow } from './proc-stats.js';

/** Runs `quire args --json` as its own process, watching its memory; answers its document and usage. */
export function measured(
  args: string[],
  env: Env,
): Promise<{ result: unknown; usage: ReturnType<UsageWindow['end']> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...binNodeFlags(), BIN, ...args, '--json'], {
      cwd: ROOT,
      env: baseEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const window = new UsageWindow(child.pid!);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('exit', (code) => {
      const usage = window.end();
      if (code !== 0) reject(new Error(`quire ${args.join(' ')} exited ${code}: ${stderr.trim()}`));
      else resolve({ result: JSON.parse(stdout), usage });
    });
  });
}
