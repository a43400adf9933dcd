import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let release: string | undefined;

/** The version in Quire's package.json, which archives name as the release that wrote them. */
export function quireRelease(): string {
  if (release !== undefined) return release;
  // This module runs from src/, dist/ and dist/bundle/: the nearest package.json above it is Quire's.
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file))
      return (release = String((JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: string }).version));
    if (path.dirname(dir) === dir) return (release = 'unknown');
  }
}
