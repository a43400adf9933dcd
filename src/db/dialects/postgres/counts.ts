import { sql } from 'kysely';
import type { DialectHelpers } from '../dialect.js';

/** The triggers that keep each workspace's live posts per status and per tag (migrations 0019 and 0020). */
export const postgresCounts: Pick<DialectHelpers, 'createStatusCountTriggers' | 'createTagCountTriggers'> = {
  async createStatusCountTriggers(db) {
    const counted = (row: 'new' | 'old', delta: 1 | -1) =>
      `if ${row}.deleted_at is null then
         insert into post_status_counts (workspace_id, status, live_count) values (${row}.workspace_id, ${row}.status, ${delta})
           on conflict (workspace_id, status) do update set live_count = post_status_counts.live_count + ${delta};
       end if;`;
    const statements = [
      `create function post_status_counts_sync() returns trigger language plpgsql as $$
       begin
         if tg_op <> 'INSERT' then ${counted('old', -1)} end if;
         if tg_op <> 'DELETE' then ${counted('new', 1)} end if;
         return null;
       end $$`,
      `create trigger post_status_counts_sync after insert or delete or update of status, deleted_at, workspace_id
         on posts for each row execute function post_status_counts_sync()`,
    ];
    for (const statement of statements) await sql.raw(statement).execute(db);
  },
  async createTagCountTriggers(db) {
    const statements = [
      `create function post_tag_counts_tags() returns trigger language plpgsql as $$
       begin
         if tg_op = 'INSERT' then
           insert into post_tag_counts (workspace_id, tag_id, live_count)
             select posts.workspace_id, new.tag_id, 1 from posts where posts.id = new.post_id and posts.deleted_at is null
             on conflict (tag_id) do update set live_count = post_tag_counts.live_count + 1;
         elsif exists (select 1 from posts where posts.id = old.post_id and posts.deleted_at is null) then
           update post_tag_counts set live_count = live_count - 1 where tag_id = old.tag_id;
         end if;
         return null;
       end $$`,
      `create trigger post_tag_counts_tags after insert or delete on post_tags
         for each row execute function post_tag_counts_tags()`,
      // A post deleted outright loses its tags by the foreign key's cascade, after its row is gone (so the trigger
      // above counts nothing): they are counted out here, while they are still there.
      `create function post_tag_counts_gone() returns trigger language plpgsql as $$
       begin
         if old.deleted_at is null then
           update post_tag_counts set live_count = live_count - 1
             where tag_id in (select tag_id from post_tags where post_id = old.id);
         end if;
         return old;
       end $$`,
      `create trigger post_tag_counts_gone before delete on posts for each row execute function post_tag_counts_gone()`,
      `create function post_tag_counts_posts() returns trigger language plpgsql as $$
       declare delta integer := case when new.deleted_at is null then 1 else -1 end;
       begin
         if (old.deleted_at is null) <> (new.deleted_at is null) then
           insert into post_tag_counts (workspace_id, tag_id, live_count)
             select new.workspace_id, tag_id, delta from post_tags where post_id = new.id
             on conflict (tag_id) do update set live_count = post_tag_counts.live_count + delta;
         end if;
         return null;
       end $$`,
      `create trigger post_tag_counts_posts after update of deleted_at on posts
         for each row execute function post_tag_counts_posts()`,
    ];
    for (const statement of statements) await sql.raw(statement).execute(db);
  },
};
