import type { DatabaseHandle } from '../../../db/database.js';
import { watchOutages, type OutageLog } from '../../../db/outage.js';
import { writeTransaction } from '../../../db/transaction.js';
import type { MasterKey } from '../../../security/master-key.js';
import { onDeliveriesQueued } from '../../../writes/webhook-outbox.js';
import { storedPermissions } from '../../../security/permissions.js';
import { missingPermission } from '../webhook-permissions.js';
import { decryptWebhookSecret, signature } from '../webhook-secret.js';
import { DEFAULT_RETRY, retryDelayMs, type RetryPolicy } from './backoff.js';
import { deliveriesRepository as repo } from './deliveries.repository.js';
import { atShare, pickFairly, type Shares } from './fair-share.js';
import { sendWebhook, type SendOutcome } from './send.js';

export interface DispatcherOptions {
  /** QUIRE_WEBHOOK_ALLOW_PRIVATE. */
  allowPrivate: boolean;
  retry?: RetryPolicy;
  /** The whole exchange with a receiver must end within this. */
  timeoutMs?: number;
  /** How long a claim holds a delivery: past it, a delivery whose process died is claimed again. */
  leaseMs?: number;
  /** How often the queue is looked at when nothing woke the dispatcher (other instances' writes). */
  pollMs?: number;
  /** Deliveries sent at once. */
  concurrency?: number;
  /** Of those, the most one workspace may have under way, so its hanging receivers leave the rest to others. */
  perWorkspace?: number;
  /** The most one endpoint may have under way: a hanging receiver holds no more. */
  perEndpoint?: number;
  /** An endpoint whose every attempt has failed for this long is disabled. */
  disableAfterMs?: number;
  /** The clock (tests move it). */
  now?: () => number;
  log: DispatcherLog;
}

export interface DispatcherLog extends OutageLog {
  error(details: object, message: string): void;
}

export interface Dispatcher {
  /** Stops claiming, and waits for the sends under way to end and be recorded. */
  stop(): Promise<void>;
}

type Claimed = Awaited<ReturnType<typeof repo.claim>>[number];
type Endpoint = Awaited<ReturnType<typeof repo.endpoints>>[number];

const DAY_MS = 86_400_000;

/**
 * Sends the outbox's deliveries: claims the due ones (any number of instances share the queue), POSTs each
 * signed in the Standard Webhooks format, and records every attempt. At least once: a delivery is done only
 * when an attempt's outcome is recorded, and one claimed by a process that died falls due again when its lease
 * runs out. Woken at once by this process's writes, and polls for the others'.
 */
export function startDispatcher(
  database: DatabaseHandle,
  masterKey: MasterKey,
  options: DispatcherOptions,
): Dispatcher {
  const retry = options.retry ?? DEFAULT_RETRY;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const leaseMs = options.leaseMs ?? timeoutMs + 50_000;
  const pollMs = options.pollMs ?? 1_000;
  const concurrency = options.concurrency ?? 16;
  const shares: Shares = {
    perWorkspace: options.perWorkspace ?? Math.max(1, Math.floor(concurrency / 4)),
    perEndpoint: options.perEndpoint ?? 2,
  };
  const disableAfterMs = options.disableAfterMs ?? 5 * DAY_MS;
  const now = options.now ?? Date.now;
  const { log } = options;

  let running = true;
  let inFlight = 0;
  const load = { workspaces: new Map<string, number>(), endpoints: new Map<string, number>() };
  const count = (counts: Map<string, number>, id: string, by: number) => {
    const next = (counts.get(id) ?? 0) + by;
    if (next === 0) counts.delete(id);
    else counts.set(id, next);
  };
  const sends = new Set<Promise<void>>();
  let wake: (() => void) | undefined;
  let woken = false;
  const nudge = () => {
    woken = true;
    wake?.();
  };
  const stopListening = onDeliveriesQueued(nudge);

  const outage = watchOutages(database, 'webhook delivery', log);

  /** Waits for a wake-up, a free slot or `ms` (the poll interval), whichever comes first. */
  const idle = (ms = pollMs) =>
    new Promise<void>((resolve) => {
      if (woken || !running) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });

  /**
   * What this process claimed while the database went away: deliveries claimed but not sent (their endpoints and
   * bodies could not be read), and attempts sent but not recorded. Each is taken up again when the database
   * answers, while its lease still holds; past the lease the delivery falls due again for any instance, as after a
   * crash, so nothing is lost either way.
   */
  let unsent: Array<{ delivery: Claimed; leaseEnds: number }> = [];
  let unrecorded: Array<{ leaseEnds: number; record: () => Promise<unknown> }> = [];

  async function recordOwed(): Promise<void> {
    const at = now();
    unrecorded = unrecorded.filter((owed) => owed.leaseEnds > at);
    while (unrecorded.length > 0) {
      await unrecorded[0]!.record();
      unrecorded.shift();
    }
  }

  /** Claims up to the free slots' worth, after what was claimed and not sent before an outage. */
  async function claimNext(free: number): Promise<Array<{ delivery: Claimed; leaseEnds: number }>> {
    const at = now();
    unsent = unsent.filter((held) => held.leaseEnds > at);
    const resumed = unsent.splice(0, free);
    if (resumed.length === free) return resumed;
    const leaseEnds = at + leaseMs;
    try {
      const fresh = await repo.claim(
        database.db,
        database.dialect,
        new Date(at).toISOString(),
        new Date(leaseEnds).toISOString(),
        concurrency * 4,
        atShare(load, shares),
        (due) => pickFairly(due, free - resumed.length, load, shares),
      );
      return [...resumed, ...fresh.map((delivery) => ({ delivery, leaseEnds }))];
    } catch (error) {
      unsent.unshift(...resumed);
      throw error;
    }
  }

  async function claimSome(): Promise<number> {
    const free = concurrency - inFlight;
    if (free <= 0) return 0;
    const claimed = await claimNext(free);
    if (claimed.length === 0) return 0;
    let endpointRows: Endpoint[];
    let bodyRows: Array<{ event_id: string; payload: string }>;
    try {
      [endpointRows, bodyRows] = await Promise.all([
        repo.endpoints(database.db, [...new Set(claimed.map(({ delivery }) => delivery.endpoint_id))]),
        repo.bodies(database.db, [...new Set(claimed.map(({ delivery }) => delivery.event_id))]),
      ]);
    } catch (error) {
      unsent.unshift(...claimed);
      throw error;
    }
    const endpoints = new Map(endpointRows.map((row) => [row.id, row]));
    const bodies = new Map(bodyRows.map((row) => [row.event_id, row.payload]));
    for (const { delivery, leaseEnds } of claimed) {
      const endpoint = endpoints.get(delivery.endpoint_id);
      // Deleted since the claim: its deliveries went with it. A body goes only once no delivery refers to it.
      const payload = bodies.get(delivery.event_id);
      if (!endpoint || payload === undefined) continue;
      inFlight += 1;
      count(load.workspaces, delivery.workspace_id, 1);
      count(load.endpoints, delivery.endpoint_id, 1);
      const send = deliver(delivery, endpoint, payload, leaseEnds)
        .catch((error: unknown) =>
          log.error({ err: error, deliveryId: delivery.id }, 'recording a webhook attempt failed'),
        )
        .finally(() => {
          inFlight -= 1;
          count(load.workspaces, delivery.workspace_id, -1);
          count(load.endpoints, delivery.endpoint_id, -1);
          sends.delete(send);
          nudge();
        });
      sends.add(send);
    }
    return claimed.length;
  }

  /**
   * Why the endpoint's user may not be sent this delivery's event, read with the endpoint (so as of now, never
   * remembered); undefined when they may.
   */
  function skipReason(delivery: Claimed, endpoint: Endpoint): string | undefined {
    if (endpoint.permissions === null) return "not sent: the endpoint's user is no longer a member of the workspace";
    const missing = missingPermission(
      {
        isOwner: endpoint.user_id === endpoint.owner_user_id,
        permissions: new Set(storedPermissions(endpoint.permissions)),
      },
      delivery.event_type,
    );
    return missing === undefined ? undefined : `not sent: the endpoint's user lacks ${missing}`;
  }

  /** Sends one delivery and records the attempt; an attempt the database was away for is recorded later. */
  async function deliver(delivery: Claimed, endpoint: Endpoint, payload: string, leaseEnds: number): Promise<void> {
    const skipped = skipReason(delivery, endpoint);
    if (skipped !== undefined)
      return recordOrOwe(leaseEnds, () => repo.skip(database.db, delivery.id, skipped, new Date(now()).toISOString()));
    const secret = decryptWebhookSecret(masterKey, endpoint.secret_encrypted, endpoint.id, endpoint.workspace_id);
    const timestamp = Math.floor(now() / 1000);
    const outcome = await sendWebhook({
      url: endpoint.url,
      headers: {
        'user-agent': 'Quire-Webhooks/1',
        'webhook-id': delivery.event_id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature(secret, delivery.event_id, timestamp, payload),
      },
      body: payload,
      timeoutMs,
      allowPrivate: options.allowPrivate,
    });
    const attempt = Number(delivery.attempts);
    const at = now();
    const succeeded = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
    // A 410 is the receiver saying it is gone: its delivery is not retried either.
    const delay = succeeded || outcome.statusCode === 410 ? undefined : retryDelayMs(attempt, retry);
    const record = () =>
      writeTransaction(database, (trx) =>
        repo.record(
          trx,
          {
            deliveryId: delivery.id,
            workspaceId: delivery.workspace_id,
            endpointId: endpoint.id,
            attempt,
            ...outcome,
            succeeded,
            retryAt: delay === undefined ? undefined : new Date(at + delay).toISOString(),
            disable: succeeded ? undefined : disableReason(outcome, endpoint.failing_since, at),
          },
          new Date(at).toISOString(),
        ),
      );
    await recordOrOwe(leaseEnds, record);
  }

  async function recordOrOwe(leaseEnds: number, record: () => Promise<unknown>): Promise<void> {
    try {
      await record();
    } catch (error) {
      if (!database.dialect.unavailable(error)) throw error;
      unrecorded.push({ leaseEnds, record });
    }
  }

  /** A 410 says the receiver is gone for good; an endpoint failing for days is presumed gone too. */
  function disableReason(outcome: SendOutcome, failingSince: string | null, at: number): string | undefined {
    if (outcome.statusCode === 410) return 'the endpoint answered 410 Gone';
    if (failingSince !== null && at - Date.parse(failingSince) >= disableAfterMs)
      return `every attempt has failed since ${new Date(failingSince).toISOString()}`;
    return undefined;
  }

  const loop = (async () => {
    while (running) {
      woken = false;
      try {
        await recordOwed();
        const claimed = await claimSome();
        outage.succeeded();
        if (claimed > 0) continue;
      } catch (error) {
        const wait = outage.failed(error);
        if (wait !== undefined) {
          await idle(wait);
          continue;
        }
        log.error({ err: error }, 'claiming webhook deliveries failed');
      }
      await idle();
    }
  })();

  return {
    async stop() {
      running = false;
      stopListening();
      wake?.();
      await loop;
      await Promise.all([...sends]);
    },
  };
}
