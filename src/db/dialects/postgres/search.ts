import { sql, type Kysely } from 'kysely';
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

/** posts_search_trgm for the body, as 0005 named it, and posts_head_search_trgm for the head. */
const trigramIndex = (table: SearchableTable, column: SearchColumn) => `${searchIndexName(table, column)}_trgm`;

/**
 * A row's words and scope words as a tsvector (`row` is `new` in the trigger, the table in a fill), built from
 * the words as stored (search-words.ts) without PostgreSQL's parser, so both dialects find exactly the same
 * words.
 */
const rowWords = (row: string) => {
  const workspace = `'§' || replace(${row}.workspace_id::text, '-', '')`;
  return `array_to_tsvector(array_remove(string_to_array(${row}.search_head || ' ' || ${row}.search_text
    || ' ' || ${workspace} || ' ' || ${workspace} || '§' || ${row}.status, ' '), ''))`;
};

const wordTable = (table: SearchableTable) => `${table}_words`;

/**
 * The word index: a narrow table of the live rows' words beside the table, kept by a trigger, with a GIN index.
 * A count of a common word then visits the narrow table's rows, never the wide ones, which hold the bodies and
 * everything else of a post (docs/performance.md, "Figures behind the code").
 */
async function createWordIndex(db: Kysely<unknown>, table: SearchableTable): Promise<void> {
  const words = wordTable(table);
  const statements = [
    `create table ${words} (row_id uuid primary key references ${table} (id) on delete cascade, words tsvector not null)`,
    `create index ${words}_gin on ${words} using gin (words)`,
    `create function ${words}_sync() returns trigger language plpgsql as $$
     begin
       if tg_op = 'DELETE' then
         delete from ${words} where row_id = old.id;
       elsif new.deleted_at is not null then
         delete from ${words} where row_id = new.id;
       else
         insert into ${words} (row_id, words) values (new.id, ${rowWords('new')})
           on conflict (row_id) do update set words = excluded.words;
       end if;
       return null;
     end $$`,
    // A write that sets none of these columns (a render stamp, a score) leaves the index alone.
    `create trigger ${words}_sync after insert or delete or update of search_head, search_text, status, deleted_at,
       workspace_id on ${table} for each row execute function ${words}_sync()`,
    `insert into ${words} (row_id, words) select id, ${rowWords(table)} from ${table} where deleted_at is null`,
    `analyze ${words}`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/** tsquery syntax: each word a quoted lexeme, taken as it is; the prefix one with `:*`. */
function tsQuery(scope: WordScope, query: WordQuery): string {
  const quoted = (word: string) => `'${word.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
  const terms = [scopeWords(scope.workspaceId, scope.status), ...query.whole].map(quoted);
  if (query.prefix !== undefined) terms.push(`${quoted(query.prefix)}:*`);
  return terms.join(' & ');
}

const wordsMatch = (table: SearchableTable, scope: WordScope, query: WordQuery) =>
  sql<boolean>`${sql.ref(`${table}.id`)} in (select row_id from ${sql.table(wordTable(table))}
    where words @@ ${tsQuery(scope, query)}::tsquery)`;

/** The word index of posts and pages (migration 0018), and the trigram indexes it replaced (0005, 0008). */
export const postgresSearch: Pick<
  DialectHelpers,
  | 'wordsMatch'
  | 'wordsFound'
  | 'searching'
  | 'createWordIndex'
  | 'dropWordIndex'
  | 'createSearchIndex'
  | 'dropSearchIndex'
> = {
  wordsMatch: (table, scope, query) => wordsMatch(table, scope, query),
  // Counted in the word table alone, which holds only live rows and the scope's words (counted through the
  // table itself, each match would be looked up among the wide rows). A count of at most `few` is followed by
  // their ids: the planner prices a GIN lookup of a word's beginning above a walk of the whole word table, and
  // would walk it for a rare word. A common word is not named: a GIN index collects every match
  // before it returns one, so a limited lookup first would collect them twice.
  async wordsFound(db, table, scope, query, few) {
    const words = sql.table(wordTable(table));
    const match = sql<boolean>`words @@ ${tsQuery(scope, query)}::tsquery`;
    const inRow = wordsMatch(table, scope, query);
    const { rows } = await sql<{ total: number; live: number }>`select count(*) as total,
        ${livePostCount(scope.workspaceId)} as live
      from ${words} where ${match}`.execute(db);
    const { total, live } = rows[0]!;
    if (total > few) return { counted: { total, live }, few: undefined, inRow };
    const named = await sql<{ row_id: string }>`select row_id from ${words} where ${match}`.execute(db);
    const ids = named.rows.map((row) => row.row_id);
    return { few: sql<boolean>`${sql.ref(`${table}.id`)} = any(${ids}::uuid[])`, inRow };
  },

  searching: (db, work) =>
    db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      return work(trx);
    }),
  createWordIndex,
  async dropWordIndex(db, table) {
    await sql.raw(`drop table if exists ${wordTable(table)}`).execute(db);
    await sql.raw(`drop function if exists ${wordTable(table)}_sync() cascade`).execute(db);
  },

  async createSearchIndex(db, table, column = 'search_text') {
    // pg_trgm is a trusted extension (PostgreSQL 13+): a database owner may create it.
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index ${sql.id(trigramIndex(table, column))} on ${sql.table(table)} using gin (${sql.ref(column)} gin_trgm_ops)`.execute(
      db,
    );
  },
  async dropSearchIndex(db, table, column) {
    await sql`drop index if exists ${sql.id(trigramIndex(table, column))}`.execute(db);
  },
};
