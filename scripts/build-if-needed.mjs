// `npm start`'s first step: runs the parts of `npm run build` whose output is missing or older than their
// sources, and nothing when all are current (`npm ci` builds everything through the prepare script).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_PARTS, buildNeeded } from './build-needed.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
for (const part of BUILD_PARTS) {
  const need = buildNeeded(root, part.name);
  if (need === null) continue;
  const why = need === 'missing' ? 'is not built yet' : 'has changed since it was built';
  process.stdout.write(`The ${part.name} ${why}: npm run ${part.script}\n`);
  const result = spawnSync('npm', ['run', '--silent', part.script], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
