import { parseArgs } from 'node:util';

export type Dialect = 'sqlite' | 'postgres';

/** What `npm run bench -- …` was asked to do; recorded as is in the results file. */
export interface BenchFlags {
  db: Dialect;
  posts: number;
  /** Seconds of measurement per scenario, after a warm-up of `warmup` seconds. */
  duration: number;
  warmup: number;
  connections: number;
  /** Scenario names to run; empty means all of them. */
  only: string[];
  keep: boolean;
  /** A data dir kept by an earlier run (`--keep`), reused without seeding again. */
  dataDir: string | null;
  /** Where the server processes write `--cpu-prof` profiles; null for none. */
  cpuProf: string | null;
  /** The measured servers' LOG_LEVEL: the default a site runs with, unless asked otherwise. */
  logLevel: LogLevel;
  /** Where the results file goes; null for bench/results, which is committed. */
  resultsDir: string | null;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
const isLogLevel = (value: string): value is LogLevel => (LOG_LEVELS as readonly string[]).includes(value);

export const USAGE = `npm run bench -- [options]

  --db sqlite|postgres   database (default sqlite); postgres creates and drops a database quire_bench_<random>
                         on QUIRE_BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test)
  --posts N              posts to seed (default 10000)
  --duration S           seconds measured per scenario (default 10)
  --warmup S             seconds of warm-up before each measurement (default 2)
  --connections C        concurrent connections (default 32)
  --only a,b             run only these scenarios (names as printed in the table)
  --keep                 keep the data dir (and the PostgreSQL database) for a later --data-dir
  --data-dir DIR         reuse a data dir kept by --keep instead of seeding a new one
  --cpu-prof DIR         start every server process with --cpu-prof, writing its profiles to DIR
  --log-level L          the measured servers' LOG_LEVEL (default info, the server's own default); warn to compare
  --results-dir DIR      write the results file into DIR instead of bench/results (an A/B series' scratch runs)
`;

/** A flag's whole number from `min` to `max`, `fallback` when absent; otherwise the run stops naming the flag. */
export function wholeNumber(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`--${name} must be a whole number, got ${JSON.stringify(raw)}`);
  const value = Number(raw);
  if (value < min || value > max) throw new Error(`--${name} must be between ${min} and ${max}, got ${raw}`);
  return value;
}

export function parseFlags(argv: string[]): BenchFlags | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      db: { type: 'string' },
      posts: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      only: { type: 'string' },
      keep: { type: 'boolean' },
      'data-dir': { type: 'string' },
      'cpu-prof': { type: 'string' },
      'log-level': { type: 'string' },
      'results-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) return 'help';
  const db = values.db ?? 'sqlite';
  if (db !== 'sqlite' && db !== 'postgres')
    throw new Error(`--db must be sqlite or postgres, got ${JSON.stringify(db)}`);
  const logLevel = values['log-level'] ?? 'info';
  if (!isLogLevel(logLevel))
    throw new Error(`--log-level must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(logLevel)}`);
  return {
    db,
    posts: wholeNumber('posts', values.posts, 10_000, 20, 1_000_000),
    duration: wholeNumber('duration', values.duration, 10, 1, 600),
    warmup: wholeNumber('warmup', values.warmup, 2, 0, 600),
    connections: wholeNumber('connections', values.connections, 32, 1, 1000),
    only: (values.only ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== ''),
    keep: values.keep ?? false,
    dataDir: values['data-dir'] ?? null,
    cpuProf: values['cpu-prof'] ?? null,
    logLevel,
    resultsDir: values['results-dir'] ?? null,
  };
}
