import crypto from 'node:crypto';
import { CompiledQuery, Migrator, sql, type Insertable, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, migrationNames } from '../../src/db/migrate.js';
import type { ApiKeysTable, PostsTable } from '../../src/db/schema.js';
import { authenticationQuery } from '../../src/modules/api-keys/api-keys.repository.js';
import { contentKeyAuthenticationQuery } from '../../src/modules/content-keys/content-keys.repository.js';
import { hashKey } from '../../src/security/key-token.js';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';

const SPEC_TABLES = [
  'users',
  'workspaces',
  'memberships',
  'api_keys',
  'posts',
  'pages',
  'media',
  'authors',
  'categories',
  'tags',
  'post_tags',
  'related_posts',
  'redirects',
  'link_health',
];

function postRow(workspaceId: string, slug: string): Insertable<PostsTable> {
  const now = new Date().toISOString();
  return {
    id: crypto.randomUUID(),
    workspace_id: workspaceId,
    slug,
    title: slug,
    excerpt: '',
    body_json: '[]',
    body_text: '',
    toc_items: '[]',
    word_count: 0,
    reading_time_min: 1,
    status: 'draft',
    is_how_to: false,
    view_count: 0,
    schema_type: 'BlogPosting',
    structured_blocks: '[]',
    seo_score: 0,
    readability_score: 0,
    created_at: now,
    updated_at: now,
  };
}

function keyRow(
  workspaceId: string,
  userId: string,
  keyHash = crypto.randomBytes(32).toString('hex'),
): Insertable<ApiKeysTable> {
  const now = new Date().toISOString();
  return {
    id: crypto.randomUUID(),
    workspace_id: workspaceId,
    created_by_user_id: userId,
    name: 'bulk',
    key_prefix: 'quire_live_bulk000',
    key_hash: keyHash,
    key_encrypted: 'not-a-real-ciphertext',
    master_key_id: 'test',
    created_at: now,
    updated_at: now,
  };
}

/** The driver's own word for a broken foreign key, on either dialect. */
function isForeignKeyViolation(error: unknown): boolean {
  const { code } = error as { code?: string };
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
}

/** The error a statement fails with; a statement that succeeds fails the test. */
async function failureOf(statement: Promise<unknown>): Promise<unknown> {
  try {
    await statement;
  } catch (error) {
    return error;
  }
  throw new Error('the statement was expected to fail, and it succeeded');
}

describeEachDialect('schema', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
  });
  afterAll(() => ctx?.close());

  const db = () => ctx.runtime.database.db;
  const helpers = () => ctx.runtime.database.dialect;

  describe('migrations', () => {
    it('a second run applies nothing; the first recorded every migration once', async () => {
      expect(await migrateToLatest(ctx.runtime.database)).toEqual([]);
      expect(await migrateToLatest(ctx.runtime.database)).toEqual([]);
      const applied = await sql<{ name: string }>`select name from quire_migrations order by name`.execute(db());
      expect(applied.rows.map((row) => row.name)).toEqual(migrationNames(ctx.runtime.database.dialect));
    });

    it('a migration that fails half-way leaves nothing behind and is not recorded', async () => {
      const migrator = new Migrator({
        db: db(),
        migrationTableName: 'half_done_migrations',
        migrationLockTableName: 'half_done_migrations_lock',
        provider: {
          getMigrations: async () => ({
            '0001_half_done': {
              async up(trx: Kysely<unknown>) {
                await trx.schema.createTable('half_done').addColumn('id', 'integer').execute();
                await sql`insert into half_done (id) values (1)`.execute(trx);
                throw new Error('failed half-way');
              },
            },
          }),
        },
      });
      const { error, results } = await migrator.migrateToLatest();
      expect((error as Error).message).toBe('failed half-way');
      expect(results?.map((result) => [result.migrationName, result.status])).toEqual([['0001_half_done', 'Error']]);
      const tables = (await db().introspection.getTables()).map((table) => table.name);
      expect(tables).not.toContain('half_done');
      const recorded = await sql<{ n: number }>`select count(*) as n from half_done_migrations`.execute(db());
      expect(Number(recorded.rows[0]!.n)).toBe(0);
    });

    it('creates every table the specification names', async () => {
      const tables = (await db().introspection.getTables()).map((table) => table.name);
      for (const table of SPEC_TABLES) expect(tables, table).toContain(table);
    });
  });

  describe('post slugs are unique among live posts of a workspace', () => {
    it('refuses a second live post with the slug, allows it in another workspace', async () => {
      const [first, second] = [await ctx.createWorkspace(), await ctx.createWorkspace()];
      await db().insertInto('posts').values(postRow(first.id, 'hello')).execute();
      const error = await failureOf(db().insertInto('posts').values(postRow(first.id, 'hello')).execute());
      expect(helpers().uniqueViolation(error)).toEqual({ table: 'posts', columns: ['workspace_id', 'slug'] });
      expect(isForeignKeyViolation(error)).toBe(false);
      await db().insertInto('posts').values(postRow(second.id, 'hello')).execute();
      await db().insertInto('posts').values(postRow(first.id, 'hello-2')).execute();
    });

    it('a soft delete frees the slug; restoring while it is taken again is refused', async () => {
      const workspace = await ctx.createWorkspace();
      const original = postRow(workspace.id, 'reused');
      await db().insertInto('posts').values(original).execute();
      await db()
        .updateTable('posts')
        .set({ deleted_at: new Date().toISOString() })
        .where('id', '=', original.id)
        .execute();
      const replacement = postRow(workspace.id, 'reused');
      await db().insertInto('posts').values(replacement).execute();
      // Any number of deleted rows may share the slug.
      await db()
        .updateTable('posts')
        .set({ deleted_at: new Date().toISOString() })
        .where('id', '=', replacement.id)
        .execute();
      await db().insertInto('posts').values(postRow(workspace.id, 'reused')).execute();

      const restore = db().updateTable('posts').set({ deleted_at: null }).where('id', '=', original.id).execute();
      expect(helpers().uniqueViolation(await failureOf(restore))).toEqual({
        table: 'posts',
        columns: ['workspace_id', 'slug'],
      });
      const live = await db()
        .selectFrom('posts')
        .select('id')
        .where('workspace_id', '=', workspace.id)
        .where('deleted_at', 'is', null)
        .execute();
      expect(live).toHaveLength(1);
    });
  });

  describe('constraints', () => {
    it('enforces foreign keys', async () => {
      const workspace = await ctx.createWorkspace();
      const missing = crypto.randomUUID();
      const orphanPost = await failureOf(db().insertInto('posts').values(postRow(missing, 'orphan')).execute());
      expect(isForeignKeyViolation(orphanPost)).toBe(true);
      expect(helpers().uniqueViolation(orphanPost)).toBeUndefined();

      const orphanKey = await failureOf(db().insertInto('api_keys').values(keyRow(workspace.id, missing)).execute());
      expect(isForeignKeyViolation(orphanKey)).toBe(true);
      const post = postRow(workspace.id, 'tagged');
      await db().insertInto('posts').values(post).execute();
      const danglingTag = db()
        .insertInto('post_tags')
        .values({ workspace_id: workspace.id, post_id: post.id, tag_id: missing, created_at: post.created_at })
        .execute();
      expect(isForeignKeyViolation(await failureOf(danglingTag))).toBe(true);
      expect(await db().selectFrom('posts').select('id').where('workspace_id', '=', missing).execute()).toEqual([]);
    });

    it('a key hash exists once: two keys can never authenticate as the same row', async () => {
      const workspace = await ctx.createWorkspace();
      const hash = crypto.randomBytes(32).toString('hex');
      await db()
        .insertInto('api_keys')
        .values(keyRow(workspace.id, workspace.owner.id, hash))
        .execute();
      const duplicate = await failureOf(
        db()
          .insertInto('api_keys')
          .values(keyRow(workspace.id, workspace.owner.id, hash))
          .execute(),
      );
      expect(helpers().uniqueViolation(duplicate)).toEqual({ table: 'api_keys', columns: ['key_hash'] });
    });
  });

  describe('the content key authentication query', () => {
    it('finds the content key through the unique key_hash index, never a scan of content_keys', async () => {
      // Keys over many workspaces, as on a hosted installation: the join then follows the workspace's primary key.
      const workspaces: Array<{ id: string }> = [];
      for (let i = 0; i < 40; i += 1) workspaces.push(await ctx.createWorkspace());
      const rows = Array.from({ length: 2000 }, (_, i) => ({
        id: crypto.randomUUID(),
        workspace_id: workspaces[i % workspaces.length]!.id,
        name: 'filler',
        key_prefix: 'quire_content_x',
        key_hash: crypto.randomBytes(32).toString('hex'),
        key_encrypted: 'x',
        master_key_id: 'x',
        allowed_origins: '[]',
        created_by_user_id: null,
        revoked_at: null,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      }));
      for (let start = 0; start < rows.length; start += 250)
        await db()
          .insertInto('content_keys')
          .values(rows.slice(start, start + 250))
          .execute();
      await sql`analyze`.execute(db());

      const query = contentKeyAuthenticationQuery(db(), rows[1234]!.key_hash);
      expect((await query.executeTakeFirst())?.id).toBe(rows[1234]!.id);
      const compiled = query.compile();
      const explain = dialect === 'sqlite' ? 'explain query plan' : 'explain';
      const result = await db().executeQuery<Record<string, string>>(
        CompiledQuery.raw(`${explain} ${compiled.sql}`, [...compiled.parameters]),
      );
      const plan = result.rows.map((row) => row.detail ?? row['QUERY PLAN']).join('\n');
      if (dialect === 'sqlite') {
        expect(plan.split('\n')[0]).toMatch(/^SEARCH content_keys USING (COVERING )?INDEX \S+ \(key_hash=\?\)$/);
        expect(plan).not.toMatch(/\bSCAN\b/);
      } else {
        expect(plan).toMatch(/Index (Only )?Scan using content_keys_key_hash_key on content_keys/);
        expect(plan).not.toMatch(/Seq Scan on content_keys/);
      }
    });
  });

  describe('the authentication query', () => {
    it('finds the key through the unique key_hash index, never a scan of api_keys', async () => {
      const workspace = await ctx.createWorkspace();
      const { id, key } = await ctx.createKey(workspace, workspace.owner);
      // Enough rows that a planner picking a sequential scan would be a real choice, not a tiny-table shortcut.
      for (let batch = 0; batch < 4; batch += 1) {
        const rows = Array.from({ length: 500 }, () => keyRow(workspace.id, workspace.owner.id));
        await db().insertInto('api_keys').values(rows).execute();
      }
      await sql`analyze`.execute(db());

      const query = authenticationQuery(db(), hashKey(key));
      expect((await query.executeTakeFirst())?.id).toBe(id);
      const compiled = query.compile();
      const explain = dialect === 'sqlite' ? 'explain query plan' : 'explain';
      const result = await db().executeQuery<Record<string, string>>(
        CompiledQuery.raw(`${explain} ${compiled.sql}`, [...compiled.parameters]),
      );
      const plan = result.rows.map((row) => row.detail ?? row['QUERY PLAN']).join('\n');

      if (dialect === 'sqlite') {
        // The outer loop starts at the key; the joins then follow primary keys, so nothing is scanned.
        expect(plan.split('\n')[0]).toMatch(/^SEARCH api_keys USING (COVERING )?INDEX \S+ \(key_hash=\?\)$/);
        expect(plan).not.toMatch(/\bSCAN\b/);
      } else {
        expect(plan).toMatch(/Index (Only )?Scan using api_keys_key_hash_key on api_keys/);
        expect(plan).toMatch(/Index Cond: \(key_hash = /);
        expect(plan).not.toMatch(/Seq Scan on api_keys/);
      }
    });
  });

  // PostgreSQL has no counterpart to these settings; its suite simply has no such test.
  if (dialect !== 'sqlite') return;
  it('SQLite runs in WAL mode with foreign keys on and a busy timeout', async () => {
    const pragma = async (name: string) => {
      const { rows } = await sql<Record<string, unknown>>`pragma ${sql.raw(name)}`.execute(db());
      return Object.values(rows[0] ?? {})[0];
    };
    expect(String(await pragma('journal_mode')).toLowerCase()).toBe('wal');
    expect(Number(await pragma('foreign_keys'))).toBe(1);
    expect(Number(await pragma('busy_timeout'))).toBeGreaterThan(0);
  });
});
