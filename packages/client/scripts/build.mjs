// `npm run build` of @quire/client: the ES module build in dist/, and a CommonJS one in dist/cjs/ for
// `require` (package.json `exports`). Each folder gets the generated schema.d.ts and content-schema.d.ts, which
// tsc does not copy, and dist/cjs/ a package.json saying its .js files are CommonJS (the package itself is an ES
// module).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tscBin = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const tsc = (project) => execFileSync(process.execPath, [tscBin, '-p', project], { cwd: root, stdio: 'inherit' });

fs.rmSync(path.join(root, 'dist'), { recursive: true, force: true });
tsc('tsconfig.json');
tsc('tsconfig.cjs.json');
for (const dir of ['dist', 'dist/cjs'])
  for (const types of ['schema.d.ts', 'content-schema.d.ts'])
    fs.copyFileSync(path.join(root, 'src', types), path.join(root, dir, types));
fs.writeFileSync(path.join(root, 'dist/cjs/package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
