import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { DialectName } from '../../src/db/dialects/dialect.js';
import {
  startDispatcher,
  type Dispatcher,
  type DispatcherOptions,
} from '../../src/modules/webhooks/dispatch/dispatcher.js';
import { buildTestApp, EXTERNAL, type TestContext } from './app.js';
import type { Json, Response } from './posts.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';

/** A dispatcher's log that says nothing: the tests read outcomes from the deliveries, not from log lines. */
export const silentLog = { error: () => undefined, warn: () => undefined, info: () => undefined };

export interface WebhookSuite {
  /** The app (set in beforeAll). */
  readonly ctx: TestContext;
  /** A real receiver on loopback (set in beforeAll). */
  readonly receiver: Receiver;
  /** Starts a dispatcher on the app's database, stopped after the test; private targets allowed. */
  dispatch(options?: Partial<DispatcherOptions>): Dispatcher;
  /** A request to the external API with `key`. */
  call(key: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown): Promise<Response>;
  /** The answer's body, once its status is the one expected. */
  ok<T>(response: Response, status?: number): T;
}

/**
 * The set-up of a webhook suite, registered in the calling `describe`: the app (with private targets allowed and
 * `env`), a receiver, and the dispatchers a test starts, stopped after it.
 */
export function webhookSuite(dialect: DialectName, env: Record<string, string> = {}): WebhookSuite {
  let ctx: TestContext | undefined;
  let receiver: Receiver | undefined;
  const running: Dispatcher[] = [];
  beforeAll(async () => {
    ctx = await buildTestApp(dialect, { env: { QUIRE_WEBHOOK_ALLOW_PRIVATE: 'true', ...env } });
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((dispatcher) => dispatcher.stop()));
  });
  afterAll(async () => {
    await receiver?.close();
    await ctx?.close();
  });
  return {
    get ctx() {
      return ctx!;
    },
    get receiver() {
      return receiver!;
    },
    dispatch(options = {}) {
      const dispatcher = startDispatcher(ctx!.runtime.database, ctx!.runtime.masterKey, {
        allowPrivate: true,
        pollMs: 25,
        log: silentLog,
        ...options,
      });
      running.push(dispatcher);
      return dispatcher;
    },
    call: (key, method, url, payload) =>
      ctx!.app.inject({
        method,
        url: `${EXTERNAL}${url}`,
        headers: { 'x-api-key': key },
        ...(payload === undefined ? {} : { payload: payload as Json }),
      }),
    ok<T>(response: Response, status = 200): T {
      expect(response.statusCode, response.body).toBe(status);
      return response.json() as T;
    },
  };
}
