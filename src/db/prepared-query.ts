import { CompiledQuery, type Compilable, type Kysely, type QueryResult } from 'kysely';
type Scalar = string | number | null;

/** Where each parameter of the compiled text comes from: an argument by position, or a constant of the query. */
type Slot = { argument: number } | { constant: unknown };

interface Template {
  sql: string;
  slots: Slot[];
}

const PLACEHOLDER = '\u0000quire-argument-';

/**
 * A query whose SQL text depends on the dialect alone, built and compiled through Kysely once per dialect
 * and then run with each call's arguments. Building a query costs more than running most of ours (the
 * authentication query's share of a cached answer: docs/performance.md, "Figures behind the code").
 *
 * `build` is called once with placeholders in place of its arguments. Each must reach the compiled query
 * as a parameter (it may be used more than once) and nothing in the query's shape may depend on them;
 * a placeholder that is missing from the parameters or found in the text is refused when first compiled.
 */
export function preparedQuery<DB, A extends Scalar[], R>(build: (db: Kysely<DB>, ...args: A) => Compilable<R>) {
  // The arguments after the executor; `build` takes no defaults or rest parameters.
  const arity = build.length - 1;
  // Keyed by the dialect's adapter, which a database shares with every transaction opened on it.
  const templates = new WeakMap<object, Template>();

  function compileTemplate(db: Kysely<DB>): Template {
    const placeholders = Array.from({ length: arity }, (_, index) => `${PLACEHOLDER}${index}\u0000`);
    const compiled = build(db, ...(placeholders as A)).compile();
    if (compiled.sql.includes(PLACEHOLDER)) throw new Error('preparedQuery: an argument was written into the SQL text');
    const slots = compiled.parameters.map((value): Slot => {
      const index = placeholders.indexOf(value as string);
      return index >= 0 ? { argument: index } : { constant: value };
    });
    placeholders.forEach((_, index) => {
      if (!slots.some((slot) => 'argument' in slot && slot.argument === index))
        throw new Error(`preparedQuery: argument ${index} is not a parameter of the query`);
    });
    return { sql: compiled.sql, slots };
  }

  return (db: Kysely<DB>, ...args: A): Promise<QueryResult<R>> => {
    const adapter = db.getExecutor().adapter;
    let template = templates.get(adapter);
    if (template === undefined) {
      template = compileTemplate(db);
      templates.set(adapter, template);
    }
    const parameters = template.slots.map((slot) => ('argument' in slot ? args[slot.argument] : slot.constant));
    return db.executeQuery<R>(CompiledQuery.raw(template.sql, parameters));
  };
}
