import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';

/** A data dir as a person typed it: `./data` below the working directory, the absolute path elsewhere. */
export function displayDir(dir: string, cwd = process.cwd()): string {
  const relative = path.relative(cwd, dir);
  if (relative === '') return '.';
  return relative.startsWith('..') || path.isAbsolute(relative) ? dir : `./${relative}`;
}

/** A database URL that can be shown: its password, if any, replaced by `mask`. */
export function withoutPassword(databaseUrl: string, mask = '***'): string {
  const url = new URL(databaseUrl);
  const inQuery = url.searchParams.has('password');
  if (url.password === '' && !inQuery) return databaseUrl;
  // A marker first, then the mask: URL would percent-encode the brackets of `<password>`.
  if (url.password !== '') url.password = 'MASKED';
  if (inQuery) url.searchParams.set('password', 'MASKED');
  return url.toString().replace(':MASKED@', `:${mask}@`).replace('password=MASKED', `password=${mask}`);
}

/**
 * Where a command reads and writes, for a message about something it did not find there:
 * `./data (QUIRE_DATA_DIR)`, or `postgres://quire:***@db:5432/quire (DATABASE_URL)`.
 */
export function dataLocation(config: Config, cwd = process.cwd()): string {
  return config.databaseUrl
    ? `${withoutPassword(config.databaseUrl)} (DATABASE_URL)`
    : `${displayDir(config.dataDir, cwd)} (QUIRE_DATA_DIR)`;
}

/**
 * Whether the data dir holds something this configuration reads: the SQLite database, `master.key` (unless
 * QUIRE_MASTER_KEY is set) or `media/` (local storage). PostgreSQL with both in the environment and S3 needs none.
 */
export function readsDataDir(config: Config): boolean {
  return config.databaseUrl === null || config.masterKey === null || config.mediaStorage.driver === 'local';
}

export function dataDirMissing(config: Config): boolean {
  return readsDataDir(config) && !fs.existsSync(config.dataDir);
}

const SHELL_SAFE = /^[A-Za-z0-9_./:@%+=,-]+$/;

function shellWord(value: string): string {
  return SHELL_SAFE.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * The variables a `quire` command run in the same directory needs to reach the server's data, as a shell
 * prefix (`QUIRE_DATA_DIR=/srv/quire `): those that differ from the defaults, secrets as placeholders.
 */
export function cliEnvironment(config: Config, cwd = process.cwd()): string {
  const words: string[] = [];
  if (readsDataDir(config) && config.dataDir !== path.resolve(cwd, 'data'))
    words.push(`QUIRE_DATA_DIR=${shellWord(displayDir(config.dataDir, cwd))}`);
  if (config.databaseUrl) words.push(`DATABASE_URL=${shellWord(withoutPassword(config.databaseUrl, '<password>'))}`);
  // Without it, the command would make a master.key of its own and encrypt new keys with that.
  if (config.masterKey) words.push(`QUIRE_MASTER_KEY=${shellWord('<the same key>')}`);
  return words.map((word) => `${word} `).join('');
}
