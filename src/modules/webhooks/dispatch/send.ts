import http from 'node:http';
import https from 'node:https';
import { ForbiddenAddressError, guardedLookup, isForbiddenAddress, literalHost } from './address-guard.js';

/** What one attempt to send a webhook came to. */
export interface SendOutcome {
  /** The receiver's status code; null when no answer came. */
  statusCode: number | null;
  durationMs: number;
  /** The answer's first bytes, decoded as UTF-8. */
  responseExcerpt: string | null;
  error: string | null;
}

export interface SendOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** QUIRE_WEBHOOK_ALLOW_PRIVATE: reach loopback and private addresses too. */
  allowPrivate: boolean;
}

export const EXCERPT_BYTES = 2048;

/**
 * POSTs one webhook. The whole exchange (connecting, sending, the answer's head and the excerpt) must end within
 * the timeout. A redirect is an answer like any other, never followed: following it would send the signed body
 * to a URL the workspace never registered, past the address check. Never throws.
 */
export function sendWebhook({ url, headers, body, timeoutMs, allowPrivate }: SendOptions): Promise<SendOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const refusal = (error: string) =>
    Promise.resolve({ statusCode: null, responseExcerpt: null, error, durationMs: elapsed() });
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return refusal('the URL does not parse');
  }
  // A literal address is connected to without a lookup, so it is checked here.
  const literal = literalHost(target.hostname);
  if (!allowPrivate && literal !== undefined && isForbiddenAddress(literal))
    return refusal(new ForbiddenAddressError(literal).message);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<SendOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, durationMs: elapsed() });
    };
    const fail = (error: string) => finish({ statusCode: null, responseExcerpt: null, error });
    const client = target.protocol === 'https:' ? https : http;
    const request = client.request(target, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      ...(allowPrivate ? {} : { lookup: guardedLookup }),
      agent: false,
    });
    const timer = setTimeout(() => {
      request.destroy();
      fail(`no complete answer within ${timeoutMs} ms`);
    }, timeoutMs);
    request.on('error', (error: Error) => fail(error.message));
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      const done = () => {
        request.destroy();
        finish({
          statusCode: response.statusCode ?? null,
          responseExcerpt: excerpt(Buffer.concat(chunks)),
          error: null,
        });
      };
      response.on('data', (chunk: Buffer) => {
        if (kept < EXCERPT_BYTES) {
          chunks.push(chunk.subarray(0, EXCERPT_BYTES - kept));
          kept += Math.min(chunk.length, EXCERPT_BYTES - kept);
        }
        // The excerpt is all that is kept; the rest of a long answer is not waited for.
        if (kept >= EXCERPT_BYTES) done();
      });
      response.on('end', done);
      response.on('error', done);
    });
    request.end(body);
  });
}

/**
 * The answer's first bytes as text both databases store: a character cut in half at the end is dropped rather
 * than replaced (which could take the excerpt past its bound), and U+0000, which PostgreSQL text refuses, goes.
 */
function excerpt(bytes: Buffer): string {
  let text = bytes.toString('utf8').replaceAll('\u0000', '');
  while (Buffer.byteLength(text) > EXCERPT_BYTES) text = text.slice(0, -1);
  return text;
}
