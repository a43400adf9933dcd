import type { Random } from './random.js';

/*
 * Code samples for code blocks. {name} is a camelCase identifier, {table} a snake_case one, {num} a
 * number: enough variation that two posts rarely show the same block.
 */

interface Snippet {
  language: string;
  code: string;
}

const SNIPPETS: Snippet[] = [
  {
    language: 'typescript',
    code: `export async function load{Name}(id: string): Promise<{Name} | null> {
  const row = await db.selectFrom('{table}').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? to{Name}(row) : null;
}`,
  },
  {
    language: 'typescript',
    code: `const {name}Cache = new Map<string, { value: unknown; expiresAt: number }>();

export function remember(key: string, value: unknown, ttlMs = {num}_000): void {
  {name}Cache.set(key, { value, expiresAt: Date.now() + ttlMs });
}`,
  },
  {
    language: 'sql',
    code: `create index {table}_created_idx
  on {table} (workspace_id, created_at desc)
  where deleted_at is null;`,
  },
  {
    language: 'sql',
    code: `select date_trunc('week', created_at) as week, count(*) as total
from {table}
where created_at > now() - interval '{num} weeks'
group by 1
order by 1;`,
  },
  {
    language: 'bash',
    code: `#!/usr/bin/env bash
set -euo pipefail
for attempt in $(seq 1 {num}); do
  curl -fsS https://example.com/healthz && exit 0
  sleep "$attempt"
done
exit 1`,
  },
  {
    language: 'json',
    code: `{
  "name": "{name}",
  "retries": {num},
  "timeoutMs": 5000,
  "tags": ["{table}", "demo"]
}`,
  },
  {
    language: 'yaml',
    code: `jobs:
  test:
    runs-on: ubuntu-latest
    timeout-minutes: {num}
    steps:
      - uses: actions/checkout@v4
      - run: npm ci && npm test`,
  },
  {
    language: 'python',
    code: `def summarize_{table}(rows, limit={num}):
    """Group rows by category and keep the largest groups."""
    totals = {}
    for row in rows:
        totals[row["category"]] = totals.get(row["category"], 0) + row["amount"]
    return sorted(totals.items(), key=lambda item: item[1], reverse=True)[:limit]`,
  },
  {
    language: 'css',
    code: `.{table} {
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax({num}rem, 1fr));
  gap: 1rem;
}`,
  },
];

const NAMES = [
  'report',
  'invoice',
  'session',
  'order',
  'profile',
  'article',
  'booking',
  'event',
  'metric',
  'customer',
  'recipe',
  'trip',
];

export function codeSample(rng: Random): Snippet {
  const snippet = rng.pick(SNIPPETS);
  const name = rng.pick(NAMES);
  const values: Record<string, string> = {
    name,
    Name: name.charAt(0).toUpperCase() + name.slice(1),
    table: `${name}s`,
    num: String(rng.int(2, 30)),
  };
  return {
    language: snippet.language,
    code: snippet.code.replace(/\{(name|Name|table|num)\}/g, (_, key: string) => values[key]!),
  };
}
