import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The floors of src/ (docs/architecture.md, "Floors"): a file imports from its own floor or a lower one, and no
 * files import each other in a circle, directly or through a loop. Type-only imports count: a type names what a
 * file knows. The longest matching prefix decides a file's floor; a file no prefix matches fails the test, so a
 * new folder is placed on purpose.
 */
const FLOORS: ReadonlyArray<readonly [prefix: string, floor: number]> = [
  // What every floor may know: errors, configuration, pure helpers, who is asking and what they may do.
  ['src/errors.ts', 1],
  ['src/config.ts', 1],
  ['src/shared/', 1],
  ['src/security/', 1],
  // The databases (every dialect difference lives here), Redis, metrics.
  ['src/db/', 2],
  ['src/redis.ts', 2],
  ['src/mail/', 2],
  ['src/metrics/', 2],
  // The kits the modules build on: the block format, the route kit, the one write path.
  ['src/blocks/', 3],
  ['src/http/', 3],
  ['src/writes/', 3],
  ['src/audit/', 3],
  // One folder per resource.
  ['src/modules/', 4],
  // The composition: every service built, every content kind handed to the write path.
  ['src/services.ts', 5],
  ['src/content-kinds.ts', 5],
  // The front door around the modules: authentication, edge, scopes, caching, logging, errors.
  ['src/server/', 6],
  ['src/app.ts', 7],
  ['src/openapi/', 7],
  // What runs the product: the runtime, the data dir's lock, the seed and the operations on archives.
  ['src/runtime.ts', 8],
  ['src/seed/', 8],
  ['src/operate/', 8],
  // The programs.
  ['src/openapi/generate.ts', 9],
  ['src/main.ts', 9],
  ['src/cli/', 9],
];

const ROOT = path.resolve(import.meta.dirname, '../..');

function floorOf(file: string): number | undefined {
  let best: readonly [string, number] | undefined;
  for (const entry of FLOORS) {
    if (file.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  }
  return best?.[1];
}

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) files.push(...sourceFiles(file));
    else if (file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.d.ts')) files.push(file);
  }
  return files.sort();
}

// Static imports and re-exports (`… from '…'`, type-only ones too), side-effect imports, dynamic `import('…')`.
const IMPORT = /(?:\bfrom\s+|\bimport\s+|\bimport\(\s*)'(\.{1,2}\/[^']+)'/g;

/** Each file's imports of other files of src/, by path from the repository's root. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles('src')) {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8').replace(/^\s*(\/\/.*|\/?\*.*)$/gm, '');
    const targets = new Set<string>();
    for (const match of text.matchAll(IMPORT)) {
      const target = path.posix.join(path.posix.dirname(file), match[1]!).replace(/\.js$/, '.ts');
      if (target.startsWith('src/')) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** The imports that run from a lower floor up to a higher one, as `from (floor) → to (floor)`. */
export function upwardImports(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    const floor = floorOf(file)!;
    for (const target of targets) {
      const to = floorOf(target);
      if (to !== undefined && to > floor) found.push(`${file} (${floor}) → ${target} (${to})`);
    }
  }
  return found;
}

/** Every circle of imports (Tarjan's strongly connected components of two files or more), each sorted. */
export function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next++;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

/** The folder of a module (`src/modules/posts`), or the file itself elsewhere. */
function moduleOf(file: string): string | undefined {
  const match = /^src\/modules\/[^/]+/.exec(file);
  return match?.[0];
}

describe('the floors of src/', () => {
  const graph = importGraph();

  it('places every file of src/ on a floor', () => {
    expect([...graph.keys()].filter((file) => floorOf(file) === undefined)).toEqual([]);
  });

  it('finds the imports it reads (a sample the regex must not miss)', () => {
    expect(graph.get('src/app.ts')!.length).toBeGreaterThan(10);
    expect(graph.get('src/services.ts')!.length).toBeGreaterThan(10);
  });

  it('has no import from a lower floor up to a higher one', () => {
    expect(upwardImports(graph)).toEqual([]);
  });

  it('has no circle of files importing each other', () => {
    expect(circles(graph).map((circle) => circle.join(' ↔ '))).toEqual([]);
  });

  it('has no circle between module folders', () => {
    const folders = new Map<string, string[]>();
    for (const [file, targets] of graph) {
      const from = moduleOf(file);
      if (!from) continue;
      const into = new Set(folders.get(from) ?? []);
      for (const target of targets) {
        const to = moduleOf(target);
        if (to && to !== from) into.add(to);
      }
      folders.set(from, [...into].sort());
    }
    expect(circles(folders).map((circle) => circle.join(' ↔ '))).toEqual([]);
  });
});

/** Every module specifier `file` imports (static, re-exported, side-effect or dynamic), relative or not. */
function specifiers(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8').replace(/^\s*(\/\/.*|\/?\*.*)$/gm, '');
  return [...text.matchAll(/(?:\bfrom\s+|\bimport\s+|\bimport\(\s*)'([^']+)'/g)].map((match) => match[1]!);
}

describe('@quire/blocks, below every floor of src/', () => {
  const dir = 'packages/blocks/src';
  const { dependencies } = JSON.parse(fs.readFileSync(path.join(ROOT, 'packages/blocks/package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  // Type-only: the mdast node types come with mdast-util-from-markdown.
  const allowed = new Set([...Object.keys(dependencies), 'mdast']);

  it('imports its own files and its declared dependencies only: nothing of src/, nothing of Node', () => {
    const found: string[] = [];
    for (const file of sourceFiles(dir))
      for (const specifier of specifiers(file)) {
        const inside = path.posix.join(path.posix.dirname(file), specifier).startsWith(`${dir}/`);
        if (specifier.startsWith('.') ? !inside : !allowed.has(specifier)) found.push(`${file} → ${specifier}`);
      }
    expect(found).toEqual([]);
  });
});
