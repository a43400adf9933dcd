import type { DatabaseHandle } from '../../db/database.js';
import { watchOutages, type OutageLog } from '../../db/outage.js';
import { nowIso } from '../../shared/time.js';
import { purgeCursorsRepository as cursors } from './purge-cursors.repository.js';
import { purgeKeysOf } from './surrogate-keys.js';
import type { PurgeTarget } from './varnish.js';

export interface PurgerOptions {
  target: PurgeTarget;
  log: OutageLog & { error(details: object, message: string): void };
  /** How often the purger looks for new events; a purge reaches the CDN within about this. */
  pollMs?: number;
}

const WORKSPACES_PER_ROUND = 100;
const EVENTS_PER_WORKSPACE = 1_000;
const LONGEST_BACKOFF_MS = 30_000;

/**
 * The CDN purger every `quire serve` runs when a purge target is configured (docs/content-api.md, "CDN"). It
 * reads the content events (the log every content write records in its transaction, as the change feed does)
 * past each workspace's cursor, purges the surrogate keys they name, and only then moves the cursor: a crash or
 * a CDN that is away delays a purge, never loses it. Instances share the cursors; a purge sent twice is harmless.
 */
export function startCdnPurger(database: DatabaseHandle, options: PurgerOptions) {
  const { db } = database;
  const pollMs = options.pollMs ?? 200;
  const outage = watchOutages(database, 'CDN purging', options.log);
  let running = true;
  let timer: NodeJS.Timeout | undefined;
  let backoff = 0;
  let failing = false;
  let initialized = false;

  async function round(): Promise<void> {
    const now = nowIso();
    if (!initialized) {
      await cursors.initialize(db, now);
      initialized = true;
    }
    for (const workspace of await cursors.pending(db, WORKSPACES_PER_ROUND)) {
      const events = await cursors.eventsAfter(db, workspace.workspace_id, workspace.seq ?? 0, EVENTS_PER_WORKSPACE);
      const keys = new Set<string>();
      for (const event of events)
        for (const key of purgeKeysOf(workspace.workspace_id, event.resource_type, event.resource_id)) keys.add(key);
      if (keys.size > 0) await options.target([...keys]);
      const last = events.at(-1)?.seq ?? workspace.seq ?? 0;
      // A full batch may have more behind it: the version stays behind so that the next round reads on.
      const version = events.length === EVENTS_PER_WORKSPACE ? 0 : workspace.content_version;
      await cursors.advance(db, workspace.workspace_id, last, version, nowIso());
    }
  }

  async function loop(): Promise<void> {
    if (!running) return;
    let wait = pollMs;
    try {
      await round();
      outage.succeeded();
      if (failing) options.log.info({}, 'the CDN takes purges again');
      failing = false;
      backoff = 0;
    } catch (error) {
      const outageWait = outage.failed(error);
      if (outageWait !== undefined) wait = outageWait;
      else {
        if (!failing) options.log.error({ err: error }, 'CDN purge failed; retrying until it succeeds');
        failing = true;
        backoff = Math.min(LONGEST_BACKOFF_MS, Math.max(pollMs, backoff * 2));
        wait = backoff;
      }
    }
    if (running) timer = setTimeout(() => void loop(), wait);
  }

  void loop();
  return {
    stop() {
      running = false;
      if (timer) clearTimeout(timer);
    },
  };
}
