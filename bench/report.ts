import type { LoadResult } from './load.js';
import type { UsageReport } from './proc-stats.js';
import type { Block } from './scenarios.js';

/** One line of the table, and everything behind it. */
export interface Row {
  scenario: string;
  block: Block;
  what: string;
  requestsPerSecond: number;
  p50: number | null;
  p99: number | null;
  bytes: number;
  ceilingRequestsPerSecond: number | null;
  ceilingPercent: number | null;
  /** Server CPU time over the measured run divided by every response it sent (reads and writes). */
  cpuMsPerResponse: number | null;
  /** PostgreSQL's CPU (its backends) over the same run per response; null on SQLite, whose work is the server's. */
  dbCpuMsPerResponse: number | null;
  /**
   * The same for the ceiling process. Its rate is often bounded by the load generator on the other core,
   * its CPU per answer much less: the pair compares the two servers' own work.
   */
  ceilingCpuMsPerResponse: number | null;
  peakRssMb: number | null;
  /** 1-minute load average when the scenario started. */
  load1: number;
  otherCpuPercent: number | null;
  notes: string[];
  server: LoadResult & { usage: UsageReport };
  ceiling: (LoadResult & { usage: UsageReport }) | null;
}

export interface ColdStart {
  healthzMs: number;
  firstPostsMs: number;
}

export interface TargetCheck {
  target: string;
  measured: string;
  met: boolean | null;
  gap: string;
}

const COLUMNS: Array<[string, (row: Row) => string]> = [
  ['scenario', (row) => row.scenario],
  ['req/s', (row) => String(row.requestsPerSecond)],
  ['p50 ms', (row) => (row.p50 === null ? '-' : row.p50.toFixed(2))],
  ['p99 ms', (row) => (row.p99 === null ? '-' : row.p99.toFixed(2))],
  ['bytes', (row) => String(row.bytes)],
  ['ceiling req/s', (row) => (row.ceilingRequestsPerSecond === null ? '-' : String(row.ceilingRequestsPerSecond))],
  ['% of ceiling', (row) => (row.ceilingPercent === null ? '-' : row.ceilingPercent.toFixed(1))],
  ['CPU ms/resp', (row) => (row.cpuMsPerResponse === null ? '-' : row.cpuMsPerResponse.toFixed(3))],
  ['db CPU ms/resp', (row) => (row.dbCpuMsPerResponse === null ? '-' : row.dbCpuMsPerResponse.toFixed(3))],
  [
    'ceiling CPU ms/resp',
    (row) => (row.ceilingCpuMsPerResponse === null ? '-' : row.ceilingCpuMsPerResponse.toFixed(3)),
  ],
  ['peak RSS MB', (row) => (row.peakRssMb === null ? '-' : row.peakRssMb.toFixed(1))],
  ['load1', (row) => row.load1.toFixed(2)],
  ['other CPU %', (row) => (row.otherCpuPercent === null ? '-' : String(row.otherCpuPercent))],
];

/** The table as GitHub Markdown, padded so it reads in a terminal too. */
export function formatTable(rows: Row[]): string {
  const cells = rows.map((row) => COLUMNS.map(([, cell]) => cell(row)));
  const widths = COLUMNS.map(([title], i) => Math.max(title.length, ...cells.map((line) => line[i]!.length)));
  const line = (values: string[]) =>
    `| ${values.map((value, i) => (i === 0 ? value.padEnd(widths[i]!) : value.padStart(widths[i]!))).join(' | ')} |`;
  const rule = `|${widths.map((width, i) => (i === 0 ? `${'-'.repeat(width + 1)}-` : `${'-'.repeat(width + 1)}:`)).join('|')}|`;
  return [line(COLUMNS.map(([title]) => title)), rule, ...cells.map(line)].join('\n');
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/**
 * Issue 26's targets in CPU ms per answer without the cache, per dialect: the newest-published list at any
 * size, `q` at 100,000 posts (where a run has fewer, the figure is shown against the target all the same).
 */
const CPU_TARGETS: Array<{ name: string; sqlite: number; postgres: number; at: string }> = [
  { name: 'newest-published-no-cache', sqlite: 1.5, postgres: 4, at: 'any size' },
  { name: 'search-common-no-cache', sqlite: 10, postgres: 20, at: '100,000 posts' },
  { name: 'search-rare-no-cache', sqlite: 2, postgres: 4, at: '100,000 posts' },
];

function cpuTargets(rows: Row[], dialect: 'sqlite' | 'postgres'): TargetCheck[] {
  return CPU_TARGETS.map(({ name, at, ...limits }) => {
    const limit = limits[dialect];
    // On PostgreSQL an answer's CPU is the server's and the database's together.
    const found = rows.find((r) => r.scenario === name);
    const cpu =
      found?.cpuMsPerResponse === undefined || found.cpuMsPerResponse === null
        ? null
        : found.cpuMsPerResponse + (found.dbCpuMsPerResponse ?? 0);
    return {
      target: `${name} ≤ ${limit} CPU ms/answer on ${dialect}${dialect === 'postgres' ? ', server and database' : ''} (issue 26, at ${at})`,
      measured: cpu === null ? 'not run' : `${cpu.toFixed(2)} ms`,
      met: cpu === null ? null : cpu <= limit,
      gap: cpu === null || cpu <= limit ? '' : `${(cpu - limit).toFixed(2)} ms over (×${(cpu / limit).toFixed(1)})`,
    };
  });
}

/** Issues 8's and 26's targets against this run's figures; null where the run did not measure it. */
export function checkTargets(
  rows: Row[],
  coldStarts: ColdStart[],
  posts: number,
  linkHealthExact: boolean | null,
  dialect: 'sqlite' | 'postgres',
): TargetCheck[] {
  const row = (name: string) => rows.find((r) => r.scenario === name);
  const checks: TargetCheck[] = [];
  const ratio = (name: string, min: number) => {
    const percent = row(name)?.ceilingPercent ?? null;
    checks.push({
      target: `${name} ≥ ${min} % of ceiling`,
      measured: percent === null ? 'not run' : `${percent.toFixed(1)} %`,
      met: percent === null ? null : percent >= min,
      gap:
        percent === null || percent >= min
          ? ''
          : `${(min - percent).toFixed(1)} points short (×${(min / Math.max(percent, 0.01)).toFixed(1)} needed)`,
    });
  };
  ratio('post-by-slug', 50);
  ratio('list-default', 35);
  ratio('post-by-slug-no-cache', 10);
  ratio('post-by-slug-cold', 10);
  ratio('list-default-no-cache', 5);
  ratio('list-default-cold', 5);

  const searchBudget = posts <= 10_000 ? 20 : posts <= 100_000 ? 50 : null;
  for (const name of ['search-common', 'search-common-no-cache', 'search-rare', 'search-rare-no-cache']) {
    const ran = row(name);
    const p99 = ran?.p99 ?? null;
    checks.push({
      target:
        searchBudget === null
          ? `${name} p99 (no target above 100,000 posts)`
          : `${name} p99 ≤ ${searchBudget} ms at ${posts} posts`,
      measured: !ran ? 'not run' : p99 === null ? 'no answer within the run' : `${p99.toFixed(2)} ms`,
      met: !ran || searchBudget === null ? null : p99 !== null && p99 <= searchBudget,
      gap:
        p99 === null || searchBudget === null || p99 <= searchBudget
          ? ''
          : `${(p99 - searchBudget).toFixed(1)} ms over (×${(p99 / searchBudget).toFixed(1)})`,
    });
  }

  const linkHealth = row('link-health');
  checks.push({
    target: 'link-health ≥ 5,000 req/s with an exact hitCount',
    measured: linkHealth
      ? `${linkHealth.requestsPerSecond} req/s, hitCount ${linkHealthExact ? 'exact' : 'NOT exact'}`
      : 'not run',
    met: linkHealth ? linkHealth.requestsPerSecond >= 5_000 && linkHealthExact === true : null,
    gap:
      !linkHealth || linkHealth.requestsPerSecond >= 5_000 ? '' : `${5_000 - linkHealth.requestsPerSecond} req/s short`,
  });

  const peaks = rows.map((r) => r.peakRssMb).filter((mb): mb is number => mb !== null);
  const peak = peaks.length > 0 ? Math.max(...peaks) : null;
  checks.push({
    target: `peak RSS ≤ 250 MB (the target is at 100,000 posts; this run has ${posts})`,
    measured: peak === null ? 'not measured' : `${peak.toFixed(1)} MB`,
    met: peak === null ? null : peak <= 250,
    gap: peak === null || peak <= 250 ? '' : `${(peak - 250).toFixed(1)} MB over`,
  });

  const start = coldStarts.length > 0 ? median(coldStarts.map((c) => c.firstPostsMs)) : null;
  checks.push({
    target: 'cold start to the first 200 of GET /posts ≤ 1,500 ms (median of the starts)',
    measured: start === null ? 'not measured' : `${start} ms`,
    met: start === null ? null : start <= 1_500,
    gap: start === null || start <= 1_500 ? '' : `${start - 1_500} ms over`,
  });
  return [...checks, ...cpuTargets(rows, dialect)];
}

export function formatTargets(checks: TargetCheck[]): string {
  return checks
    .map(
      (check) =>
        `${check.met === null ? '  -  ' : check.met ? ' met ' : 'MISS '} ${check.target}: ${check.measured}${check.gap ? `, ${check.gap}` : ''}`,
    )
    .join('\n');
}

export function coldStartSummary(starts: ColdStart[]): string {
  if (starts.length === 0) return 'cold start: not measured';
  const list = (pick: (c: ColdStart) => number) => starts.map(pick).join(', ');
  return (
    `cold start, spawn to first 200 (median of ${starts.length}): GET /healthz ${median(starts.map((c) => c.healthzMs))} ms ` +
    `[${list((c) => c.healthzMs)}], authenticated GET /posts ${median(starts.map((c) => c.firstPostsMs))} ms [${list((c) => c.firstPostsMs)}]`
  );
}
