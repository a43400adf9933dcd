import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request the receiver got, checked as a receiver would: by the standardwebhooks package. */
export interface Received {
  path: string;
  id: string;
  body: string;
  event: { id: string; type: string; timestamp: string; data: Record<string, unknown> };
  /** null when `Webhook.verify` accepted the request; otherwise why it refused it. */
  verifyError: string | null;
  at: number;
}

/** What the receiver answers one request with. */
export interface Answer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** Waits this long before answering. */
  delayMs?: number;
}

/** A real HTTP receiver on loopback; each endpoint a path of it, each path with its own secret. */
export interface Receiver {
  url(path: string): string;
  received: Received[];
  /** The secret the requests to `path` are verified with. */
  secrets: Map<string, string>;
  answer: (path: string, received: Received) => Answer;
  /** Waits until `count` requests matching `filter` have arrived, or throws after `timeoutMs`. */
  waitFor(count: number, filter?: (received: Received) => boolean, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const waiters = new Set<() => void>();
  const receiver: Receiver = {
    url: (path) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    received,
    secrets: new Map(),
    answer: () => ({ status: 204 }),
    async waitFor(count, filter = () => true, timeoutMs = 10_000) {
      const matching = () => received.filter(filter);
      if (matching().length >= count) return matching();
      return new Promise((resolve, reject) => {
        const check = () => {
          if (matching().length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(matching());
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`received ${matching().length} of ${count} webhooks within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const body = Buffer.concat(chunks).toString('utf8');
      let verifyError: string | null = 'no secret for this path';
      const secret = receiver.secrets.get(path);
      if (secret !== undefined) {
        try {
          new Webhook(secret).verify(body, request.headers as Record<string, string>);
          verifyError = null;
        } catch (error) {
          verifyError = (error as Error).message;
        }
      }
      const entry: Received = {
        path,
        id: String(request.headers['webhook-id']),
        body,
        event: JSON.parse(body) as Received['event'],
        verifyError,
        at: Date.now(),
      };
      const answer = receiver.answer(path, entry);
      const send = () => {
        received.push(entry);
        response.writeHead(answer.status, answer.headers ?? {}).end(answer.body ?? '');
        for (const waiter of [...waiters]) waiter();
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return receiver;
}
