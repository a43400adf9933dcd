/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are written against the schema as it was then */
import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectHelpers } from '../dialects/dialect.js';

/**
 * One row per resource a content write changed (src/writes/content-write.ts), in the write's transaction.
 *
 * Recording an event is what moves the workspace's versions: a trigger bumps `content_version` (the key of
 * every cached answer) and, unless the resource is one no stored post render embeds (posts label their own
 * renders, and no post embeds a page or a redirect), `embeds_version`. So no write can change content without
 * invalidating what was cached of it, and no module bumps a version by hand.
 *
 * `seq` orders a workspace's events in commit order. SQLite runs one write transaction at a time, so its
 * rowid does. On PostgreSQL the trigger draws the sequence only after its update has locked the workspace
 * row, which every content write of that workspace takes and holds until it commits: two writes of one
 * workspace draw their numbers in the order they commit.
 */
export function contentEvents({ name, types: t }: DialectHelpers): Migration {
  return {
    async up(db: Kysely<any>) {
      if (name === 'postgres') await sql`create sequence content_events_seq`.execute(db);
      await db.schema
        .createTable('content_events')
        .addColumn('seq', name === 'postgres' ? 'bigint' : 'integer', (c) =>
          name === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('resource_type', 'text', (c) => c.notNull())
        .addColumn('resource_id', t.uuid, (c) => c.notNull())
        .addColumn('slug', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        // No foreign keys: the history outlives the key or the membership that wrote it.
        .addColumn('actor_user_id', t.uuid)
        .addColumn('actor_api_key_id', t.uuid)
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('content_events_workspace_seq_idx')
        .on('content_events')
        .columns(['workspace_id', 'seq'])
        .execute();
      await db.schema.createIndex('content_events_created_idx').on('content_events').column('created_at').execute();
      if (name === 'postgres') await postgresTrigger(db);
      else await sqliteTrigger(db);
    },
  };
}

async function postgresTrigger(db: Kysely<any>): Promise<void> {
  await sql`
    create function content_events_record() returns trigger language plpgsql as $$
    begin
      update workspaces
         set content_version = content_version + 1,
             embeds_version = embeds_version
               + case when new.resource_type in ('post', 'page', 'redirect') then 0 else 1 end
       where id = new.workspace_id;
      new.seq := nextval('content_events_seq');
      return new;
    end
    $$`.execute(db);
  await sql`
    create trigger content_events_record before insert on content_events
    for each row execute function content_events_record()`.execute(db);
}

async function sqliteTrigger(db: Kysely<any>): Promise<void> {
  await sql`
    create trigger content_events_record after insert on content_events
    begin
      update workspaces
         set content_version = content_version + 1,
             embeds_version = embeds_version + (new.resource_type not in ('post', 'page', 'redirect'))
       where id = new.workspace_id;
    end`.execute(db);
}
