import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { WordQuery } from '../../../shared/search-words.js';
import { livePostCount } from '../../counts.js';
import {
  searchIndexName,
  scopeWords,
  type DialectHelpers,
  type SearchableTable,
  type SearchColumn,
  type WordScope,
} from '../dialect.js';

/**
 * The external-content FTS5 index of one column, and the triggers that keep it in step with every write of the
 * column.
 */
async function createColumnIndex(db: Kysely<unknown>, table: SearchableTable, column: SearchColumn): Promise<void> {
  const index = searchIndexName(table, column);
  await sql`create virtual table ${sql.table(index)} using fts5(${sql.raw(column)}, content=${sql.lit(table)}, content_rowid='rowid', tokenize='trigram')`.execute(
    db,
  );
  await sql
    .raw(
      `create trigger ${index}_ai after insert on ${table} begin insert into ${index}(rowid, ${column}) values (new.rowid, new.${column}); end;`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger ${index}_ad after delete on ${table} begin insert into ${index}(${index}, rowid, ${column}) values ('delete', old.rowid, old.${column}); end;`,
    )
    .execute(db);
  // "update of" the column: a write that sets other columns only (the title, for the body's index) re-indexes nothing.
  await sql
    .raw(
      `create trigger ${index}_au after update of ${column} on ${table} begin
         insert into ${index}(${index}, rowid, ${column}) values ('delete', old.rowid, old.${column});
         insert into ${index}(rowid, ${column}) values (new.rowid, new.${column});
       end;`,
    )
    .execute(db);
  await sql.raw(`insert into ${index}(${index}) values ('rebuild')`).execute(db);
}

const wordIndex = (table: SearchableTable) => `${table}_words`;

/**
 * FTS5 syntax: each word a quoted string (so nothing in it is an operator), all of them required, and the scope's
 * word when given.
 */
function ftsQuery(scope: WordScope | undefined, query: WordQuery): string {
  const quoted = (word: string) => `"${word.replace(/"/g, '""')}"`;
  const scoped = scope === undefined ? [] : [scopeWords(scope.workspaceId, scope.status)];
  const terms = [...scoped, ...query.whole].map(quoted);
  if (query.prefix !== undefined) terms.push(`${quoted(query.prefix)}*`);
  return terms.join(' AND ');
}

/** The scope words of a row (dialect.ts scopeWords) as SQL over the trigger's `new` or `old`. */
const rowScope = (row: 'new' | 'old' | '') => {
  const ref = (column: string) => (row ? `${row}.${column}` : column);
  const workspace = `'§' || replace(${ref('workspace_id')}, '-', '')`;
  return `${workspace} || ' ' || ${workspace} || '§' || ${ref('status')}`;
};

/**
 * A contentless FTS5 index of the live rows' words and scope words. The words are stored already split
 * (search-words.ts), so the `ascii` tokenizer splits them only at the spaces between them: every character of
 * a stored word is a letter, digit or mark, which it takes as part of a word. `detail=none` keeps no positions:
 * a search asks which rows hold words, never where. A row leaves the index when it is deleted (soft or hard),
 * so the index counts a scope's matches without reading a row. The prefix indexes answer a word's beginning of
 * 2 to 6 characters from one list, as a whole word is, rather than merging the lists of every word it begins.
 */
async function createWordIndex(db: Kysely<unknown>, table: SearchableTable): Promise<void> {
  const index = wordIndex(table);
  const columns = 'rowid, head, body, scope';
  const values = (row: 'new' | '') =>
    `${row ? `${row}.` : ''}rowid, ${row ? `${row}.` : ''}search_head, ${row ? `${row}.` : ''}search_text, ${rowScope(row)}`;
  const statements = [
    `create virtual table ${index} using fts5(head, body, scope, content='', contentless_delete=1,
       tokenize='ascii', detail='none', prefix='2 3 4 5 6')`,
    `create trigger ${index}_ai after insert on ${table} when new.deleted_at is null begin
       insert into ${index}(${columns}) values (${values('new')});
     end`,
    `create trigger ${index}_ad after delete on ${table} when old.deleted_at is null begin
       delete from ${index} where rowid = old.rowid;
     end`,
    // A write that sets none of these columns (a render stamp, a score) leaves the index alone.
    `create trigger ${index}_au after update of search_head, search_text, status, deleted_at, workspace_id on ${table}
     begin
       delete from ${index} where rowid = old.rowid and old.deleted_at is null;
       insert into ${index}(${columns}) select ${values('new')} where new.deleted_at is null;
     end`,
    `insert into ${index}(${columns}) select ${values('')} from ${table} where deleted_at is null`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/**
 * The match of `query` on a row's own stored words, which are separated by single spaces: a whole word is
 * ` word ` within the spaced columns, a beginning ` word`.
 */
function storedWordsHold(table: SearchableTable, query: WordQuery): RawBuilder<boolean> {
  const spaced = sql`(' ' || ${sql.ref(`${table}.search_head`)} || ' ' || ${sql.ref(`${table}.search_text`)} || ' ')`;
  const needles = [
    ...query.whole.map((word) => ` ${word} `),
    ...(query.prefix === undefined ? [] : [` ${query.prefix}`]),
  ];
  if (needles.length === 0) return sql<boolean>`0`;
  return sql<boolean>`(${sql.join(
    needles.map((needle) => sql`instr(${spaced}, ${needle}) > 0`),
    sql` and `,
  )})`;
}

/** The word index of posts and pages (migration 0018), and the trigram indexes it replaced (0005, 0008). */
export const sqliteSearch: Pick<
  DialectHelpers,
  | 'wordsMatch'
  | 'wordsFound'
  | 'searching'
  | 'createWordIndex'
  | 'dropWordIndex'
  | 'createSearchIndex'
  | 'dropSearchIndex'
> = {
  wordsMatch: (table, scope, query) =>
    sql<boolean>`${sql.ref(`${table}.rowid`)} in (select rowid from ${sql.table(wordIndex(table))} where ${sql.table(wordIndex(table))} match ${ftsQuery(scope, query)})`,
  // Rare words are looked up without the scope's word, whose list is as long as the workspace: the few rows
  // found in every workspace are named, and the list statement checks each (and counts them). Common ones
  // are counted in the scope.
  async wordsFound(db, table, scope, query, few) {
    const index = sql.table(wordIndex(table));
    const inRow = storedWordsHold(table, query);
    const { rows } = await sql<{ rowid: number }>`select rowid from ${index}
      where ${index} match ${ftsQuery(undefined, query)} limit ${few + 1}`.execute(db);
    if (rows.length <= few) {
      const rowids = JSON.stringify(rows.map((row) => row.rowid));
      const named = sql<boolean>`${sql.ref(`${table}.rowid`)} in (select value from json_each(${rowids}))`;
      return { few: named, inRow };
    }
    const counted = await sql<{ total: number; live: number }>`select count(*) as total,
        ${livePostCount(scope.workspaceId)} as live
      from ${index} where ${index} match ${ftsQuery(scope, query)}`.execute(db);
    const { total, live } = counted.rows[0]!;
    return { counted: { total, live }, few: undefined, inRow };
  },
  searching: (db, work) => work(db),
  createWordIndex,
  async dropWordIndex(db, table) {
    const index = wordIndex(table);
    for (const trigger of ['ai', 'ad', 'au']) await sql.raw(`drop trigger if exists ${index}_${trigger}`).execute(db);
    await sql.raw(`drop table if exists ${index}`).execute(db);
  },
  createSearchIndex: (db, table, column = 'search_text') => createColumnIndex(db, table, column),
  async dropSearchIndex(db, table, column) {
    const index = searchIndexName(table, column);
    for (const trigger of ['ai', 'ad', 'au']) await sql.raw(`drop trigger if exists ${index}_${trigger}`).execute(db);
    await sql.raw(`drop table if exists ${index}`).execute(db);
  },
};
