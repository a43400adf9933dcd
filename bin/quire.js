#!/usr/bin/env -S node --max-semi-space-size=8
// The flag caps V8's young generation at 3 × 8 MB instead of 3 × 16, which lowers the server's peak
// memory under most loads (docs/decisions.md). `npm start`, `npx quire` and the benchmark run this line.
// The compiled CLI lives in dist/bundle/ (built by `npm ci` through the prepare script, and by `npm start`;
// scripts/bundle.mjs says why one file).
import('../dist/bundle/cli.js').then((m) => m.main(process.argv.slice(2)));
