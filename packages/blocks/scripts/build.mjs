// `npm run build` of @quire/blocks: the ES module and its declarations in dist/, from nothing, so a source
// renamed or removed leaves no module behind.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tscBin = createRequire(import.meta.url).resolve('typescript/bin/tsc');

fs.rmSync(path.join(root, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [tscBin, '-p', 'tsconfig.json'], { cwd: root, stdio: 'inherit' });
