import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import { createDatabase, datasetEnv } from './dataset.js';
import { BIN, ROOT, baseEnv, binNodeFlags, quire, type Env } from './processes.js';
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

/** A new installation with one user, bench@example.com, on the dialect given: where an import goes. */
export async function emptyInstallation(
  dataDir: string,
  dialect: 'sqlite' | 'postgres',
): Promise<{ env: Env; databaseUrl: string | null }> {
  const databaseUrl = dialect === 'postgres' ? await createDatabase() : null;
  const env = datasetEnv({ dataDir, databaseUrl });
  await quire(
    ['user', 'create', '--email', 'bench@example.com', `--password=${crypto.randomBytes(18).toString('base64url')}`],
    env,
  );
  return { env, databaseUrl };
}
