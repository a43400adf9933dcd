#!/usr/bin/env node
// The compiled CLI lives in dist/ (built by `npm ci` through the prepare script, and by `npm start`).
import('../dist/cli/main.js').then((m) => m.main(process.argv.slice(2)));
