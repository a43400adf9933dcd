#!/usr/bin/env node
// Brings .quire/store.json up to date with Quire: `--full` reads everything again. Prints what it cost as JSON.
import { sync } from '../lib/sync.mjs';

const report = await sync({ full: process.argv.includes('--full') });
console.log(JSON.stringify(report));
