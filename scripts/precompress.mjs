// Writes a .br and a .gz beside each text asset of a build, at the highest levels: they are made once at
// build time and served as they are (@fastify/static preCompressed), so their cost is paid by no request.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|map)$/;
const MIN_BYTES = 1024;

function* files(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (COMPRESSIBLE.test(entry.name)) yield full;
  }
}

const root = path.resolve(process.argv[2] ?? 'dashboard/dist');
let written = 0;
for (const file of files(root)) {
  const bytes = fs.readFileSync(file);
  if (bytes.length < MIN_BYTES) continue;
  fs.writeFileSync(
    `${file}.br`,
    zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(bytes, { level: 9 }));
  written += 1;
}
process.stdout.write(`precompressed ${written} files of ${path.relative(process.cwd(), root) || '.'}\n`);
