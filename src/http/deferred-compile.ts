/*
 * Compiling every route's validator (ajv) and serializer (fast-json-stringify) when the server starts
 * took about half of its cold start (docs/performance.md, "Figures behind the code"), and kept
 * the generated code of routes that may never be called in memory. Each is compiled on its route's
 * first request instead. `compilePending()` compiles whatever is still waiting: the test suite calls
 * it, so a schema ajv refuses fails there rather than on somebody's first request.
 */

const pending = new Set<() => unknown>();

/** Returns a getter that compiles on first use and then returns the same compiled function. */
export function deferCompile<F>(compile: () => F): () => F {
  let compiled: F | undefined;
  const get = (): F => {
    if (compiled === undefined) {
      compiled = compile();
      pending.delete(get);
    }
    return compiled;
  };
  pending.add(get);
  return get;
}

/** Compiles every deferred function now; returns how many it compiled. */
export function compilePending(): number {
  const waiting = [...pending];
  for (const compile of waiting) compile();
  return waiting.length;
}
