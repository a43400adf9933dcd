// Part of `npm run build`, after tsc: bundles the compiled CLI and server (dist/cli/main.js and all it
// imports) into dist/bundle/, which bin/quire.js runs. Node's ES module loader spends about a
// millisecond on each file it resolves and links, and the server's graph holds some 860 of them: its own
// 140, typebox's 370, kysely's 260 and the Markdown parser's 60 (mdast-util-from-markdown and micromark,
// which @quire/blocks imports). One file instead took a cold start from about 1.2 s to 0.9 s
// (docs/decisions.md). Only those ES-module packages are inlined (@quire/blocks and what it imports are no
// dependencies of the root, so they are inlined too): the CommonJS ones load at about the same speed bundled
// or not, and some find their files through __dirname (@fastify/swagger-ui, pino's transports) or are native
// (better-sqlite3), so every other dependency stays an import.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const INLINED = new Set(['typebox', 'kysely']);
const { dependencies } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const external = Object.keys(dependencies).filter((name) => !INLINED.has(name));

const outdir = path.join(root, 'dist/bundle');
fs.rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: { cli: path.join(root, 'dist/cli/main.js') },
  outdir,
  bundle: true,
  // The modules the server imports on demand (Redis, S3) stay chunks of their own, loaded when configured.
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  sourcemap: true,
  logLevel: 'warning',
});
