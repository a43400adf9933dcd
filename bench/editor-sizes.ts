import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/*
 * The dashboard's JavaScript as a browser fetches it, read from the build: the first load is index.html's entry
 * script and everything it imports statically (a browser needs all of it before the app runs); the studio is what
 * opening the editor adds (the chunk named Studio-*, imported lazily, and its static imports not already loaded);
 * chunks the studio itself imports lazily come after. Gzip at level 9, as scripts/precompress.mjs writes the .gz
 * files the server sends.
 */

export interface Chunk {
  file: string;
  bytes: number;
  gzip: number;
  /** It holds ProseMirror's view (its class name): where the editing engine landed. */
  prosemirror: boolean;
}

export interface Sizes {
  firstLoad: Chunk[];
  studio: Chunk[];
  /** Chunks the studio loads lazily, once open. */
  studioLazy: Chunk[];
}

const STATIC = [
  /\bimport\s*(?:[^"'()]*?\bfrom\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g,
  /\bexport\s*(?:\*|\{[^}]*\})\s*from\s*["'](\.{1,2}\/[^"']+\.js)["']/g,
];
const DYNAMIC = /\bimport\(\s*["'](\.{1,2}\/[^"']+\.js)["']\s*\)/g;

function imports(dist: string, file: string, patterns: RegExp[]): string[] {
  const code = fs.readFileSync(path.join(dist, file), 'utf8');
  const found = patterns.flatMap((pattern) => [...code.matchAll(pattern)].map((match) => match[1]!));
  return [...new Set(found.map((spec) => path.posix.join(path.posix.dirname(file), spec)))];
}

/** `from` and every file it reaches through static imports. */
function closure(dist: string, from: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...from];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...imports(dist, file, STATIC));
  }
  return seen;
}

function chunk(dist: string, file: string): Chunk {
  const bytes = fs.readFileSync(path.join(dist, file));
  return {
    file,
    bytes: bytes.length,
    gzip: zlib.gzipSync(bytes, { level: 9 }).length,
    prosemirror: bytes.includes('ProseMirror-'),
  };
}

export function dashboardSizes(dist: string): Sizes {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const entries = [...html.matchAll(/<script[^>]*type="module"[^>]*src="\/dashboard\/([^"]+)"/g)].map((m) => m[1]!);
  if (entries.length === 0) throw new Error(`${dist}/index.html names no module script`);
  const first = closure(dist, entries);
  const lazyOf = (files: Iterable<string>) => [...files].flatMap((file) => imports(dist, file, [DYNAMIC]));
  const studioEntries = lazyOf(first).filter((file) => path.posix.basename(file).startsWith('Studio-'));
  if (studioEntries.length === 0) throw new Error('the first load imports no Studio-* chunk lazily');
  const studio = [...closure(dist, studioEntries)].filter((file) => !first.has(file));
  const loaded = new Set([...first, ...studio]);
  const later = [...closure(dist, lazyOf(studio))].filter((file) => !loaded.has(file));
  return {
    firstLoad: [...first].map((file) => chunk(dist, file)),
    studio: studio.map((file) => chunk(dist, file)),
    studioLazy: later.map((file) => chunk(dist, file)),
  };
}

/** kB of 1,000 bytes, as vite prints them. */
const kb = (bytes: number) => (bytes / 1000).toFixed(1);

export function formatSizes(sizes: Sizes): string {
  const lines = ['group\tfile\tkB\tkB gzip'];
  for (const [group, chunks] of [
    ['first load', sizes.firstLoad],
    ['studio', sizes.studio],
    ['studio, lazy', sizes.studioLazy],
  ] as const) {
    for (const c of chunks)
      lines.push(`${group}\t${c.file}${c.prosemirror ? ' (ProseMirror)' : ''}\t${kb(c.bytes)}\t${kb(c.gzip)}`);
    const total = chunks.reduce((sum, c) => ({ bytes: sum.bytes + c.bytes, gzip: sum.gzip + c.gzip }), {
      bytes: 0,
      gzip: 0,
    });
    lines.push(`${group}\ttotal (${chunks.length} files)\t${kb(total.bytes)}\t${kb(total.gzip)}`);
  }
  return lines.join('\n');
}
