import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Media } from '../../src/modules/media/media.schemas.js';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { filePart, pathOf, png, startS3Server, storedKeys, uploadMedia, type S3Server } from '../helpers/media.js';
import type { Response } from '../helpers/posts.js';

/*
 * Media storage going away: s3rver stopped and started again under the app. Uploads answer 503 UNAVAILABLE
 * and write no row, reads of stored files answer 503, the API's own lists keep answering, and everything
 * resumes when S3 is back, with what it held before.
 */

/** How long the load test keeps S3 stopped. */
const DOWN_MS = 2_000;
/** Each load loop's rounds (an upload and a read) before the stop. */
const ROUNDS_BEFORE = 3;
/** Each load loop's rounds after the first upload that succeeds once S3 is back. */
const ROUNDS_AFTER = 3;
const LOOPS = 2;
/** A loop that has not finished by then stops, and the test fails on its counts rather than hanging. */
const LOAD_DEADLINE_MS = 40_000;

describeEachDialect('media while S3 is away', (dialect) => {
  let s3: S3Server;
  let ctx: TestContext;
  beforeAll(async () => {
    s3 = await startS3Server();
    ctx = await buildTestApp(dialect, { env: { ...s3.env, QUIRE_RATE_LIMIT_MAX: '1000000' } });
  });
  // A failed assertion while S3 is stopped must not leave the next test without it.
  afterEach(() => s3?.start());
  afterAll(async () => {
    await ctx?.close();
    await s3?.close();
  });

  const mediaRows = (workspaceId: string) =>
    ctx.runtime.database.db.selectFrom('media').selectAll().where('workspace_id', '=', workspaceId).execute();
  const read = (url: string) => ctx.app.inject({ method: 'GET', url: pathOf(url) });
  const list = (key: string) =>
    ctx.app.inject({ method: 'GET', url: `${EXTERNAL}/media`, headers: { 'x-api-key': key } });
  const keysOf = async (workspaceId: string) =>
    (await storedKeys(ctx.config)).filter((key) => key.startsWith(`${workspaceId}/`));

  function expectUnavailable(response: Response): void {
    expect(response.statusCode, response.body).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
    expect(response.json()).toMatchObject({ code: 'UNAVAILABLE', details: { dependency: 'storage' } });
  }
  const isStorageOutage = (response: Response) => {
    const body = response.json<{ code: string; details: { dependency?: string } | null }>();
    return (
      response.headers['retry-after'] === '5' && body.code === 'UNAVAILABLE' && body.details?.dependency === 'storage'
    );
  };

  it('uploads and reads answer 503 while S3 is stopped, the list answers, and all resumes when it starts', async () => {
    const { workspace, key } = await ctx.ownerKey();
    const original = png(200, 8);
    const first = await uploadMedia(ctx, key, [filePart(original, 'before.png')]);
    expect(first.statusCode, first.body).toBe(201);
    const stored = first.json() as Media;
    const derivative = `${ctx.config.publicUrl}/media/${workspace.id}/${stored.id}/w160/before.webp`;

    await s3.stop();
    const refused = await uploadMedia(ctx, key, [filePart(png(20, 10), 'during.png')]);
    expectUnavailable(refused);
    expect(await mediaRows(workspace.id)).toHaveLength(1);
    expectUnavailable(await read(stored.url));
    expectUnavailable(await read(derivative));
    const listed = await list(key);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json()).toMatchObject({ total: 1, data: [{ id: stored.id }] });

    await s3.start();
    const again = await uploadMedia(ctx, key, [filePart(png(20, 10), 'during.png')]);
    expect(again.statusCode, again.body).toBe(201);
    const back = await read(stored.url);
    expect(back.statusCode).toBe(200);
    expect(back.rawPayload.equals(original)).toBe(true);
    expect((await read(derivative)).statusCode).toBe(200);
    const rows = await mediaRows(workspace.id);
    expect(rows).toHaveLength(2);
    // The refused upload left nothing in the bucket: only the two files and the one derivative.
    expect(await keysOf(workspace.id)).toEqual(
      [...rows.map((row) => row.storage_path), `${workspace.id}/${stored.id}/w160/before.webp`].sort(),
    );
  });

  it('a load of uploads and reads across a stop of two seconds: 2xx or 503, never 500, no row without its file', async () => {
    const { workspace, key } = await ctx.ownerKey();
    const seedBytes = png(30, 20);
    const seed = await uploadMedia(ctx, key, [filePart(seedBytes, 'seed.png')]);
    expect(seed.statusCode, seed.body).toBe(201);
    const seedUrl = (seed.json() as Media).url;

    const tally = { requests: 0, ok: 0, unavailable: 0, other: [] as string[], wrongBytes: 0 };
    const acknowledged = new Map<string, Buffer>();
    let phase: 'before' | 'down' | 'back' = 'before';
    let backAt = 0;
    let firstUploadAfterStart: number | null = null;
    const roundsBefore = Array.from({ length: LOOPS }, () => 0);
    const roundsAfter = Array.from({ length: LOOPS }, () => 0);
    const deadline = performance.now() + LOAD_DEADLINE_MS;

    const count = (what: string, response: Response) => {
      tally.requests += 1;
      if (response.statusCode >= 200 && response.statusCode < 300) tally.ok += 1;
      else if (response.statusCode === 503 && isStorageOutage(response)) tally.unavailable += 1;
      else tally.other.push(`${what} ${response.statusCode} ${response.body.slice(0, 200)}`);
    };

    async function loop(n: number): Promise<void> {
      for (let round = 0; performance.now() < deadline; round += 1) {
        if (phase === 'back' && firstUploadAfterStart !== null && roundsAfter[n]! >= ROUNDS_AFTER) return;
        const sentAfterStart = phase === 'back';
        // Unique bytes per upload, so every file read back is known to be its own.
        const bytes = png(10 + n, 10 + round);
        const upload = await uploadMedia(ctx, key, [filePart(bytes, `load-${n}-${round}.png`)]);
        count('upload', upload);
        if (upload.statusCode === 201) {
          acknowledged.set((upload.json() as Media).id, bytes);
          if (sentAfterStart && firstUploadAfterStart === null) firstUploadAfterStart = performance.now() - backAt;
        }
        const file = await read(seedUrl);
        count('read', file);
        if (file.statusCode === 200 && !file.rawPayload.equals(seedBytes)) tally.wrongBytes += 1;
        if (phase === 'before') roundsBefore[n] = round + 1;
        if (sentAfterStart && firstUploadAfterStart !== null) roundsAfter[n]! += 1;
      }
    }

    async function fault(): Promise<void> {
      while (roundsBefore.some((rounds) => rounds < ROUNDS_BEFORE) && performance.now() < deadline) await sleep(20);
      await s3.stop();
      phase = 'down';
      await sleep(DOWN_MS);
      await s3.start();
      backAt = performance.now();
      phase = 'back';
    }

    await Promise.all([fault(), ...Array.from({ length: LOOPS }, (_, n) => loop(n))]);

    const rows = await mediaRows(workspace.id);
    const keys = new Set(await keysOf(workspace.id));
    const loadRows = rows.filter((row) => row.filename !== 'seed.png');
    const rowsWithoutFile = rows.filter((row) => !keys.has(row.storage_path)).length;
    const rowKeys = new Set(rows.map((row) => row.storage_path));
    const strayObjects = [...keys].filter((stored) => !rowKeys.has(stored)).length;
    process.stdout.write(
      `s3 outage load [${dialect}]: ${tally.requests} requests, ${tally.ok} 2xx, ${tally.unavailable} 503, ` +
        `${tally.other.length} other (${tally.other.filter((line) => / 500 /.test(line)).length} of them 500); ` +
        `${acknowledged.size} uploads acknowledged, ${loadRows.length} rows, ${rowsWithoutFile} rows without their file, ` +
        `${strayObjects} stray objects; ${tally.wrongBytes} reads with wrong bytes; first upload ` +
        `${firstUploadAfterStart === null ? 'never' : `${(firstUploadAfterStart / 1000).toFixed(2)} s`} after start\n`,
    );

    expect(tally.other).toEqual([]);
    expect(tally.unavailable).toBeGreaterThan(0);
    expect(firstUploadAfterStart).not.toBeNull();
    expect(tally.wrongBytes).toBe(0);
    expect(rowsWithoutFile).toBe(0);
    expect(new Set(loadRows.map((row) => row.id))).toEqual(new Set(acknowledged.keys()));
    for (const row of loadRows) {
      const file = await read(`${ctx.config.publicUrl}/media/${workspace.id}/${row.id}/${row.filename}`);
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.equals(acknowledged.get(row.id)!)).toBe(true);
    }
  }, 60_000);
});
