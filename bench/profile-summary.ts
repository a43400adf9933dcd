/*
 * Where a `--cpu-prof` profile spent its busy time, as text:
 *   node dist/bench/profile-summary.js PROFILE.cpuprofile [self|inclusive|package] [rows]
 * self: time in each function itself; inclusive: time in a function and all it called (each function
 * counted once per sample); package: self time by npm package or file. Idle time is left out.
 */
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

type Mode = 'self' | 'inclusive' | 'package';

function label(node: ProfileNode, mode: Mode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  if (mode === 'package') {
    const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
    return inPackage ? inPackage[1]! : url.replace(/^.*\/dist\//, 'dist/') || functionName;
  }
  return `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${lineNumber}`;
}

export function summarize(profile: Profile, mode: Mode): { busyMs: number; rows: Array<[string, number]> } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const totals = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, index) => {
    const node = byId.get(id)!;
    if (node.callFrame.functionName === '(idle)') return;
    const micros = profile.timeDeltas[index] ?? 0;
    busy += micros;
    if (mode !== 'inclusive') {
      const key = label(node, mode);
      totals.set(key, (totals.get(key) ?? 0) + micros);
      return;
    }
    const seen = new Set<string>();
    for (let current: number | undefined = id; current !== undefined; current = parent.get(current)) {
      const key = label(byId.get(current)!, mode);
      if (seen.has(key)) continue;
      seen.add(key);
      totals.set(key, (totals.get(key) ?? 0) + micros);
    }
  });
  return {
    busyMs: busy / 1000,
    rows: [...totals].sort((a, b) => b[1] - a[1]).map(([key, micros]) => [key, (100 * micros) / busy]),
  };
}

function main(): void {
  const [file, mode = 'self', rows = '30'] = process.argv.slice(2);
  if (!file || !['self', 'inclusive', 'package'].includes(mode)) {
    process.stderr.write(
      'usage: node dist/bench/profile-summary.js PROFILE.cpuprofile [self|inclusive|package] [rows]\n',
    );
    process.exit(2);
  }
  const { busyMs, rows: table } = summarize(JSON.parse(fs.readFileSync(file, 'utf8')) as Profile, mode as Mode);
  process.stdout.write(`busy ${busyMs.toFixed(0)} ms (${mode})\n`);
  for (const [key, share] of table.slice(0, Number(rows)))
    process.stdout.write(`${share.toFixed(1).padStart(5)} %  ${key}\n`);
}

// Run as a command; bench:editor --profile imports summarize.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
