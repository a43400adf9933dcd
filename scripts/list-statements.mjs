// `node scripts/list-statements.mjs <quire.sqlite> [runs]`: CPU time of the statements GET /posts runs for
// some list shapes, timed alone on a benchmark data dir (docs/performance.md, issue 26), with each plan.
// Read-only; the statements are written out as the list builds them, so a change there must be made here.
import Database from 'better-sqlite3';

const [file, runsArgument = '21'] = process.argv.slice(2);
if (!file) throw new Error('usage: node scripts/list-statements.mjs <quire.sqlite> [runs]');
const runs = Number(runsArgument);
const db = new Database(file, { readonly: true });
const live = 'from posts where workspace_id = ? and deleted_at is null';
const tag = db.prepare('select tag_id, count(*) n from post_tags group by tag_id order by n desc limit 1').get();
const category = db
  .prepare('select category_id, count(*) n from posts where category_id is not null group by 1 order by 2 limit 1')
  .get();
const newest = 'order by (published_at is null), published_at desc, id desc limit 10';
const tagged = `exists (select post_id from post_tags where post_tags.post_id = posts.id and tag_id = '${tag.tag_id}')`;
const shapes = {
  'newest published: page ids': `select id ${live} and status = 'published' ${newest}`,
  'newest published: count': `select count(*) ${live} and status = 'published'`,
  'tag, publishedAt desc: page ids': `select id ${live} and ${tagged} ${newest}`,
  'tag: count (EXISTS)': `select count(*) ${live} and ${tagged}`,
  'tag: count (IN)': `select count(*) ${live} and id in (select post_id from post_tags where tag_id = '${tag.tag_id}')`,
  'fewest-post category, title: page ids': `select id ${live} and category_id = '${category.category_id}' order by title, id limit 10`,
  'dateFrom, title desc: page ids': `select id ${live} and +created_at >= '2026-11-20' order by title desc, id desc limit 10`,
  'status desc, page 500: page ids': `select id ${live} order by status desc, id desc limit 10 offset 4990`,
};
const workspaceId = db.prepare('select workspace_id from posts limit 1').get().workspace_id;
for (const [name, text] of Object.entries(shapes)) {
  const statement = db.prepare(text);
  const times = [];
  for (let run = 0; run < runs; run += 1) {
    const before = process.cpuUsage();
    statement.all(workspaceId);
    const used = process.cpuUsage(before);
    times.push(used.user + used.system);
  }
  times.sort((a, b) => a - b);
  const plan = db.prepare(`explain query plan ${text}`).all(workspaceId);
  process.stdout.write(
    `${name}: ${times[Math.floor(times.length / 2)]} µs; ${plan.map((row) => row.detail).join(' | ')}` + '\n',
  );
}
process.stdout.write(`tag ${tag.tag_id}: ${tag.n} posts; category ${category.category_id}: ${category.n} posts\n`);
