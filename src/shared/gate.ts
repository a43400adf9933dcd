/**
 * At most `concurrency` runs of `work` at a time in this process; the others wait their turn, in order. Reads
 * of posts and pages near the limits go through one, so that however many such requests arrive at once, the
 * process holds only so many of them in memory (docs/decisions.md, "Memory of one request").
 */
export function createGate(concurrency: number) {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async function run<T>(work: () => Promise<T>): Promise<T> {
    if (active >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    active += 1;
    try {
      return await work();
    } finally {
      active -= 1;
      waiting.shift()?.();
    }
  };
}

export type Gate = ReturnType<typeof createGate>;

/** A batch of a read larger than this waits for LARGE_READS. */
export const LARGE_READ_BYTES = 4 * 1024 * 1024;

const ONE_AT_A_TIME = createGate(1);

/**
 * V8's full collection, when node runs with `--expose-gc` (bin/quire.js's first line); else nothing. A large
 * read leaves garbage the size of its answer several times over (the rows' text, the parsed blocks, the
 * serialized answer), which V8 would otherwise let pile up across reads before collecting, or keep while the
 * process idles (docs/decisions.md, "Memory of one request").
 */
export function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc === 'function') gc();
}

/**
 * The one gate of this process for reads of posts and pages near the limits: one batch of them at a time,
 * each followed by a full collection, so the garbage of one never adds to the next.
 */
export const LARGE_READS: Gate = (work) => {
  const collected = async () => {
    try {
      return await work();
    } finally {
      collectGarbage();
    }
  };
  return ONE_AT_A_TIME(collected);
};
