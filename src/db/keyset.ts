import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

export type Row = Record<string, unknown>;
/** Tables named at run time (an archive's, a move's): Kysely cannot follow them, so rows are plain records. */
export type UntypedDb = Kysely<Record<string, Row>>;

export function untyped(db: Kysely<Database>): UntypedDb {
  return db as unknown as UntypedDb;
}

/**
 * The rows of `table` in pages of `size`, in the order of `key`, each page read as `key > last` so that it is
 * one range of the key's index however deep into the table it starts. `workspaceId` limits it to one workspace;
 * `columns` names the columns read (all by default), which must include the key's.
 */
export async function* keysetPages(
  db: Kysely<Database>,
  table: string,
  key: readonly string[],
  size: number,
  { workspaceId, columns }: { workspaceId?: string; columns?: readonly string[] } = {},
): AsyncGenerator<Row[]> {
  let last: unknown[] | null = null;
  for (;;) {
    let query = columns
      ? untyped(db)
          .selectFrom(table)
          .select(columns as string[])
      : untyped(db).selectFrom(table).selectAll();
    if (workspaceId !== undefined) query = query.where('workspace_id', '=', workspaceId);
    if (last !== null) {
      const after = last;
      query = query.where(
        () =>
          sql<boolean>`(${sql.join(key.map((column) => sql.ref(column)))}) > (${sql.join(after.map((value) => sql`${value}`))})`,
      );
    }
    for (const column of key) query = query.orderBy(column);
    const rows = await query.limit(size).execute();
    if (rows.length > 0) yield rows;
    if (rows.length < size) return;
    const tail = rows[rows.length - 1]!;
    last = key.map((column) => tail[column]);
  }
}
