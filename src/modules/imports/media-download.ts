import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import {
  ForbiddenAddressError,
  guardedLookup,
  isForbiddenAddress,
  literalHost,
} from '../webhooks/dispatch/address-guard.js';

export interface DownloadOptions {
  /** The connection, the answer's head and its whole body within this. */
  timeoutMs: number;
  maxBytes: number;
  /** Loopback and private addresses allowed (QUIRE_WEBHOOK_ALLOW_PRIVATE, the webhooks' rule). */
  allowPrivate: boolean;
}

/** The site answered, and the answer is not the file (a status other than 200, a file over the cap). */
export class DownloadRefused extends Error {}

export interface Downloaded {
  bytes: number;
  sha256: string;
}

/**
 * Downloads an image of the source site into `file`, under the webhooks' address rules (no private, loopback or
 * own address, checked at connection), a time limit and a size cap counted on the bytes that arrive. Redirects are
 * not followed: a site's own files answer where they are, and a redirect could lead to any host.
 */
export async function download(url: string, file: string, options: DownloadOptions): Promise<Downloaded> {
  const target = new URL(url);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error('only http and https are fetched');
  const literal = literalHost(target.hostname);
  if (!options.allowPrivate && literal !== undefined && isForbiddenAddress(literal))
    throw new ForbiddenAddressError(literal);
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new Error(`no complete answer within ${options.timeoutMs} ms`)),
    options.timeoutMs,
  );
  try {
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const client = target.protocol === 'https:' ? https : http;
      const request = client.get(target, {
        ...(options.allowPrivate ? {} : { lookup: guardedLookup }),
        agent: false,
        signal: controller.signal,
      });
      request.on('response', resolve);
      request.on('error', reject);
    });
    if (response.statusCode !== 200) {
      response.resume();
      throw new DownloadRefused(`the site answered ${response.statusCode ?? 'nothing'}`);
    }
    const declared = Number(response.headers['content-length']);
    if (declared > options.maxBytes) {
      response.destroy();
      throw new DownloadRefused(`the file is ${declared} bytes, over the ${options.maxBytes} allowed`);
    }
    const hash = createHash('sha256');
    let bytes = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        bytes += chunk.length;
        if (bytes > options.maxBytes)
          return callback(new Error(`the file is over the ${options.maxBytes} bytes allowed`));
        hash.update(chunk);
        callback(null, chunk);
      },
    });
    await pipeline(response, counted, createWriteStream(file), { signal: controller.signal });
    return { bytes, sha256: hash.digest('hex') };
  } catch (error) {
    throw controller.signal.aborted ? (controller.signal.reason as Error) : error;
  } finally {
    clearTimeout(timer);
  }
}
