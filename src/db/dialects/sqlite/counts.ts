import { sql } from 'kysely';
import type { DialectHelpers } from '../dialect.js';

/** The triggers that keep each workspace's live posts per status and per tag (migrations 0019 and 0020). */
export const sqliteCounts: Pick<DialectHelpers, 'createStatusCountTriggers' | 'createTagCountTriggers'> = {
  async createStatusCountTriggers(db) {
    const counted = (row: 'new' | 'old', delta: 1 | -1) =>
      `insert into post_status_counts (workspace_id, status, live_count)
         select ${row}.workspace_id, ${row}.status, ${delta} where ${row}.deleted_at is null
         on conflict (workspace_id, status) do update set live_count = live_count + ${delta};`;
    const statements = [
      `create trigger post_status_counts_ai after insert on posts begin ${counted('new', 1)} end`,
      `create trigger post_status_counts_ad after delete on posts begin ${counted('old', -1)} end`,
      `create trigger post_status_counts_au after update of status, deleted_at, workspace_id on posts
       begin ${counted('old', -1)} ${counted('new', 1)} end`,
    ];
    for (const statement of statements) await sql.raw(statement).execute(db);
  },
  async createTagCountTriggers(db) {
    const upsert = (delta: 1 | -1) => `on conflict (tag_id) do update set live_count = live_count + ${delta};`;
    const statements = [
      `create trigger post_tag_counts_ai after insert on post_tags begin
         insert into post_tag_counts (workspace_id, tag_id, live_count)
           select posts.workspace_id, new.tag_id, 1 from posts where posts.id = new.post_id and posts.deleted_at is null
           ${upsert(1)}
       end`,
      // A detach from a live post. When the post itself is deleted outright, its tags go by the foreign key's
      // cascade after the post's row: the post is no longer there, and the trigger below has counted them out.
      `create trigger post_tag_counts_ad after delete on post_tags begin
         update post_tag_counts set live_count = live_count - 1 where tag_id = old.tag_id
           and exists (select 1 from posts where posts.id = old.post_id and posts.deleted_at is null);
       end`,
      `create trigger post_tag_counts_bd before delete on posts when old.deleted_at is null begin
         update post_tag_counts set live_count = live_count - 1
           where tag_id in (select tag_id from post_tags where post_id = old.id);
       end`,
      `create trigger post_tag_counts_au after update of deleted_at on posts
       when (old.deleted_at is null) <> (new.deleted_at is null) begin
         insert into post_tag_counts (workspace_id, tag_id, live_count)
           select new.workspace_id, tag_id, case when new.deleted_at is null then 1 else -1 end
           from post_tags where post_id = new.id
           on conflict (tag_id) do update
             set live_count = live_count + case when new.deleted_at is null then 1 else -1 end;
       end`,
    ];
    for (const statement of statements) await sql.raw(statement).execute(db);
  },
};
