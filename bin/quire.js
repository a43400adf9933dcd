#!/usr/bin/env -S MALLOC_MMAP_THRESHOLD_=1048576 node --max-semi-space-size=8 --expose-gc
// Settings that bound the server's memory (docs/decisions.md, "Memory of one request"): glibc maps each buffer of
// 1 MiB or more on its own, and gives it back when it is freed, instead of keeping it in its heap; V8 caps its
// young generation at 3 × 8 MB; `gc` lets a read of the largest posts collect its garbage when it is done
// (shared/gate.ts). `npm start`, `npx quire` and the benchmark run this line; `node bin/quire.js` does not.
// The compiled CLI lives in dist/bundle/ (built by `npm ci` through the prepare script, and by `npm start`;
// scripts/bundle.mjs says why one file).
import('../dist/bundle/cli.js').then((m) => m.main(process.argv.slice(2)));
