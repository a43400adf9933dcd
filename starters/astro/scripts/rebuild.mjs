#!/usr/bin/env node
// Sync, build the pages aside and swap them in under the running server (lib/rebuild.mjs). Prints the figures.
import { rebuild } from '../lib/rebuild.mjs';

const report = await rebuild({ full: process.argv.includes('--full') });
console.log(JSON.stringify(report));
