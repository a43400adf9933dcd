import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { Config } from '../../config.js';
import { createDatabase, type DatabaseHandle } from '../../db/database.js';
import { postgresHelpers } from '../../db/dialects/postgres/index.js';
import { keysetPages, untyped, type Row } from '../../db/keyset.js';
import { migrateToLatest } from '../../db/migrate.js';
import type { Database } from '../../db/schema.js';
import { readSnapshot } from '../../db/snapshot.js';
import { AppError, badRequest } from '../../errors.js';
import { insertRows } from '../../db/insert-rows.js';
import { holdMoveLock } from '../serving-lock.js';
import { silentProgress, type Progress } from '../progress.js';
import { columnKind, TableChecksum, type ColumnKind } from './checksum.js';
import { MOVED_TABLES, NOT_MOVED, type MovedTable } from './tables.js';

const PAGE_ROWS = 500;
/** A post is some 75 kB with its body and search copies: fewer of them a page. */
const POSTS_PER_PAGE = 100;
/** Post rows are some 25 kB: fewer per statement. */
const POSTS_PER_STATEMENT = 200;
const SEARCHED: ReadonlyArray<'posts' | 'pages'> = ['posts', 'pages'];

export interface MoveSummary {
  tables: Record<string, { rows: number; checksum: string }>;
  rows: number;
  seconds: number;
}

type Columns = Record<string, Array<{ name: string; kind: ColumnKind }>>;

/** The target's tables and their columns' kinds, from PostgreSQL's catalog. */
async function targetColumns(db: Kysely<Database>): Promise<Columns> {
  const { rows } = await sql<{ table_name: string; column_name: string; data_type: string }>`
    select table_name, column_name, data_type from information_schema.columns
     where table_schema = current_schema() order by table_name, ordinal_position`.execute(db);
  const columns: Columns = {};
  for (const row of rows)
    (columns[row.table_name] ??= []).push({ name: row.column_name, kind: columnKind(row.data_type) });
  return columns;
}

/** Refuses a target that holds anything: tables of its own, or rows in Quire's. */
async function checkTargetEmpty(target: DatabaseHandle, shown: string): Promise<void> {
  const { rows } = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
     where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(target.db);
  const ours = new Set([...MOVED_TABLES.map((table) => table.name), ...Object.keys(NOT_MOVED)]);
  const foreign = rows.map((row) => row.table_name).filter((name) => !ours.has(name));
  if (foreign.length > 0)
    throw badRequest(
      `The target database ${shown} is not empty: it has tables of its own (${foreign.slice(0, 3).join(', ')}); give an empty database`,
    );
  for (const { table_name: name } of rows) {
    if (name.startsWith('quire_migrations')) continue;
    const row = await untyped(target.db)
      .selectFrom(name)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    if (Number(row.n) > 0)
      throw badRequest(
        `The target database ${shown} is not empty: its ${name} table holds ${Number(row.n)} rows; give an empty database`,
      );
  }
}

/** A table's rows from the source, parents before children where the table references itself. */
async function* sourcePages(db: Kysely<Database>, table: MovedTable): AsyncGenerator<Row[]> {
  if (!table.parentsFirst) {
    yield* keysetPages(db, table.name, table.key, table.name === 'posts' ? POSTS_PER_PAGE : PAGE_ROWS);
    return;
  }
  const parent = table.parentsFirst;
  let pending = await untyped(db).selectFrom(table.name).selectAll().orderBy('id').execute();
  const placed = new Set<unknown>();
  while (pending.length > 0) {
    const ready = pending.filter((row) => row[parent] === null || placed.has(row[parent]));
    // A cycle cannot be stored; should one be there, its rows go last and the foreign key says so.
    const batch = ready.length > 0 ? ready : pending;
    for (const row of batch) placed.add(row.id);
    for (let start = 0; start < batch.length; start += PAGE_ROWS) yield batch.slice(start, start + PAGE_ROWS);
    pending = pending.filter((row) => !placed.has(row.id));
  }
}

/** A SQLite row as PostgreSQL takes it: 0/1 as booleans (everything else binds as it is). */
function forPostgres(row: Row, columns: Array<{ name: string; kind: ColumnKind }>): Row {
  const out: Row = {};
  for (const { name, kind } of columns) {
    if (!(name in row)) continue;
    const value = row[name];
    out[name] = kind === 'boolean' && value !== null ? Boolean(value) : value;
  }
  return out;
}

/**
 * `quire migrate-to`: copies a SQLite installation, every table but caches (tables.ts), into an empty
 * PostgreSQL database, then reads it back and compares each table's row count and checksum (checksum.ts),
 * all in one transaction on the target: a move that fails or does not verify leaves the target empty.
 * A server serving the installation refuses the move (operate/serving-lock.ts): what it wrote after the copy's
 * snapshot would not be moved. The move holds the data dir's lock until it ends, so no server starts meanwhile.
 *
 * Content events keep their numbers: the trigger that numbers an event and moves its workspace's versions
 * (migration 0011) is disabled for the copy, inside the transaction, and the sequence set past the highest
 * number after it, so the next event follows the last one moved.
 */
export async function migrateTo(
  source: DatabaseHandle,
  config: Pick<Config, 'dataDir'>,
  databaseUrl: string,
  { progress = silentProgress, shown = databaseUrl }: { progress?: Progress; shown?: string } = {},
): Promise<MoveSummary> {
  const started = performance.now();
  if (source.file === null)
    throw badRequest(
      'This installation already runs on PostgreSQL (DATABASE_URL): quire migrate-to moves a SQLite one',
    );
  if (!/^postgres(ql)?:\/\//.test(databaseUrl)) throw badRequest('--database-url must be a postgres:// URL');
  const lock = holdMoveLock(path.dirname(source.file));
  const target = createDatabase({ databaseUrl, dataDir: config.dataDir });
  try {
    await checkTargetEmpty(target, shown);
    await migrateToLatest(target);
    const columns = await targetColumns(target.db);
    const summary = await readSnapshot(source, async (read) => {
      let total = 0;
      for (const table of MOVED_TABLES) {
        const row = await untyped(read)
          .selectFrom(table.name)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        total += Number(row.n);
      }
      return target.db.transaction().execute((trx) => copyAll(read, trx, columns, total, progress));
    });
    await sql`analyze`.execute(target.db);
    return { ...summary, seconds: Math.round(performance.now() - started) / 1000 };
  } finally {
    await target.close();
    lock.release();
  }
}

async function copyAll(
  read: Kysely<Database>,
  trx: Kysely<Database>,
  columns: Columns,
  total: number,
  progress: Progress,
): Promise<Omit<MoveSummary, 'seconds'>> {
  // The word indexes are built once from the copied rows rather than row by row.
  for (const table of SEARCHED) await postgresHelpers.dropWordIndex(trx as unknown as Kysely<unknown>, table);
  await sql`alter table content_events disable trigger content_events_record`.execute(trx);
  const copied: Record<string, TableChecksum> = {};
  let done = 0;
  progress.start('copy to PostgreSQL', total, 'rows');
  for (const table of MOVED_TABLES) {
    const tableColumns = columns[table.name] ?? [];
    const checksum = (copied[table.name] = new TableChecksum(tableColumns));
    for await (const page of sourcePages(read, table)) {
      for (const row of page) checksum.add(row);
      await insertRows(
        trx,
        'postgres',
        table.name as keyof Database & string,
        page.map((row) => forPostgres(row, tableColumns)) as never,
        table.name === 'posts' ? POSTS_PER_STATEMENT : 1000,
      );
      progress.update((done += page.length));
    }
  }
  progress.end();
  await sql`alter table content_events enable trigger content_events_record`.execute(trx);
  await sql`select setval('content_events_seq', greatest((select max(seq) from content_events), 1), (select count(*) > 0 from content_events))`.execute(
    trx,
  );
  for (const table of SEARCHED) await postgresHelpers.createWordIndex(trx as unknown as Kysely<unknown>, table);

  progress.start('verify', total, 'rows');
  done = 0;
  const tables: MoveSummary['tables'] = {};
  for (const table of MOVED_TABLES) {
    const checksum = new TableChecksum(columns[table.name] ?? []);
    for await (const page of keysetPages(
      trx,
      table.name,
      table.key,
      table.name === 'posts' ? POSTS_PER_PAGE : PAGE_ROWS,
    )) {
      for (const row of page) checksum.add(row);
      progress.update((done += page.length));
    }
    const expected = copied[table.name]!;
    if (checksum.rows !== expected.rows || checksum.digest !== expected.digest)
      throw new AppError(
        'INTERNAL',
        `The copy of ${table.name} does not match its source (${checksum.rows} rows, checksum ${checksum.digest}, against ${expected.rows} and ${expected.digest}): nothing was moved`,
      );
    tables[table.name] = { rows: checksum.rows, checksum: checksum.digest };
  }
  progress.end();
  return { tables, rows: total };
}
