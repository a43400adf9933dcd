import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { commandLine } from '../../src/writes/changes.js';
import { contentEventsRepository } from '../../src/writes/content-events.repository.js';
import { contentWrite } from '../../src/writes/content-write.js';
import { pruneEvents } from '../../src/writes/event-retention.js';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';

describeEachDialect('content events: commit order and retention', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
  });
  afterAll(() => ctx?.close());

  const db = () => ctx.runtime.database.db;

  /** Waits until a session of this database waits for a lock (PostgreSQL; SQLite queues writers in-process). */
  async function someoneWaitsForALock(): Promise<void> {
    if (dialect !== 'postgres') return;
    const waiting = sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`;
    for (let tries = 0; tries < 500; tries += 1) {
      if ((await waiting.execute(db())).rows[0]!.n > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('no session waited for a lock');
  }

  it('a write that commits later has the later number, even when it started while another held the workspace', async () => {
    const { workspace, key } = await ctx.ownerKey();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // A takes the workspace first, then waits; B writes meanwhile and must wait for A's commit.
    const first = contentWrite(ctx.runtime.database, commandLine(workspace.id), async ({ serialize, changed }) => {
      await serialize();
      await gate;
      changed({ type: 'settings', id: workspace.id, slug: null, action: 'updated' });
    });
    const second = ctx.app.inject({
      method: 'POST',
      url: `${EXTERNAL}/tags`,
      headers: { 'x-api-key': key },
      payload: { name: 'Later' },
    });
    await someoneWaitsForALock();
    release();
    await first;
    expect((await second).statusCode).toBe(201);

    const events = await contentEventsRepository.listAfter(db(), workspace.id, 0, 10);
    expect(events.map((e) => e.resource_type)).toEqual(['settings', 'tag']);
    expect(Number(events[1]!.seq)).toBeGreaterThan(Number(events[0]!.seq));
  });

  it('keeps events for the retention period and prunes older ones, without moving a version', async () => {
    const { workspace } = await ctx.ownerKey();
    const writer = commandLine(workspace.id);
    const change = (id: string) => ({ type: 'tag' as const, id, slug: null, action: 'created' as const });
    const day = 86_400_000;
    const now = Date.now();
    await db()
      .transaction()
      .execute(async (trx) => {
        await contentEventsRepository.record(
          trx,
          writer,
          [change(crypto.randomUUID()), change(crypto.randomUUID())],
          new Date(now - 31 * day).toISOString(),
        );
        await contentEventsRepository.record(
          trx,
          writer,
          [change(crypto.randomUUID())],
          new Date(now - 29 * day).toISOString(),
        );
      });
    const version = async () =>
      (
        await db()
          .selectFrom('workspaces')
          .select('content_version')
          .where('id', '=', workspace.id)
          .executeTakeFirstOrThrow()
      ).content_version;
    const before = await version();

    expect(await pruneEvents(ctx.runtime.database, 30, now)).toBeGreaterThanOrEqual(2);
    const kept = await contentEventsRepository.listAfter(db(), workspace.id, 0, 10);
    expect(kept).toHaveLength(1);
    expect(Date.parse(kept[0]!.created_at)).toBe(now - 29 * day);
    expect(await version()).toBe(before);
  });
});
