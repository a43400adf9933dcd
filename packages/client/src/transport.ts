import { EtagCache, type EtagCacheOptions } from './etag-cache.js';
import { QuireError } from './errors.js';

/** What both clients take: where the server is, and how calls are timed, retried and cached. */
export interface ClientOptions {
  /** The server's origin (and any path prefix a proxy adds), e.g. `https://cms.example.com`; the client appends the API's path (`/api/v1/external`, `/api/v1/content`). */
  baseUrl: string;
  /** Per attempt, in milliseconds; default 30,000. */
  timeoutMs?: number;
  /** Retries after the first attempt; default 3. */
  maxRetries?: number;
  /** The longest wait before a retry; a 429 asking for more is not retried. Default 60,000 ms. */
  maxRetryDelayMs?: number;
  /** The fetch to use; default the platform's. */
  fetch?: typeof fetch;
  /**
   * Conditional GETs: answers are kept with their ETags (16 MiB at most by default, least recently used out
   * first) and asked for again with `If-None-Match`, so an unchanged one comes back as a bodiless 304 and is
   * returned from memory. `false` turns it off.
   */
  cache?: EtagCacheOptions | false;
}

export interface QuireOptions extends ClientOptions {
  /** A workspace-bound key, `quire_live_…`. Keys carry their creator's permissions: keep them server-side. */
  apiKey: string;
}

/** Which API a transport calls, and how it presents its key. */
export interface Access {
  /** The API's path below `baseUrl`. */
  prefix: string;
  /** Headers every request carries (the admin key). */
  headers?: Record<string, string>;
  /** Query parameters every request carries (the content key, which the content API takes only there). */
  query?: Query;
}

/** Per call. */
export interface RequestOptions {
  /** Aborts the call, retries included. */
  signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type Query = Record<string, string | number | boolean | null | undefined>;

export interface Call {
  method: HttpMethod;
  /** Below the API's prefix, its segments already encoded. */
  path: string;
  query?: Query;
  json?: unknown;
  form?: FormData;
  /** Whether repeating the call is harmless; by default GET and DELETE are, POST and PATCH are not. */
  idempotent?: boolean;
  /** Request headers the call adds (a PATCH's If-Match). */
  headers?: Record<string, string>;
  /** `text`: the answer is a document (a feed, a sitemap) returned as it came, not JSON. */
  as?: 'json' | 'text';
  options?: RequestOptions;
}

/** One answer, its body read in full. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

export const API_PREFIX = '/api/v1/external';
export const CONTENT_API_PREFIX = '/api/v1/content';
const RETRY_STATUSES = new Set([500, 502, 503, 504]);
const BACKOFF_BASE_MS = 250;
const BACKOFF_CAP_MS = 8_000;

/** Full jitter (a random wait up to the exponential bound), so clients that failed together do not retry together. */
function backoffMs(attempt: number): number {
  return Math.random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function queryString(query: Query | undefined): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) search.append(name, String(value));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * Sends calls with the key, a timeout per attempt, and retries: a 429 is retried for every method
 * (the server refuses it before doing any work) after at least `Retry-After`; 500, 502, 503, 504 and
 * network failures only for idempotent calls (a POST that failed mid-way may have happened), after an
 * exponential backoff with jitter. GETs are conditional when the ETag cache holds an earlier answer.
 */
export class Transport {
  private readonly root: string;
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly maxRetryDelayMs: number;
  private readonly cache: EtagCache | null;

  constructor(
    options: ClientOptions,
    private readonly access: Access,
  ) {
    if (!options.baseUrl) throw new TypeError('Quire: baseUrl is required');
    this.root = `${options.baseUrl.replace(/\/+$/, '')}${access.prefix}`;
    // Bound to globalThis: a bare `fetch` taken off the global object throws "Illegal invocation" in browsers.
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxRetries = options.maxRetries ?? 3;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
    this.cache = options.cache === false ? null : new EtagCache(options.cache);
  }

  async request<T>(call: Call): Promise<T> {
    const url = `${this.root}${call.path}${queryString({ ...call.query, ...this.access.query })}`;
    const idempotent = call.idempotent ?? (call.method === 'GET' || call.method === 'DELETE');
    const signal = call.options?.signal;
    const cached = call.method === 'GET' ? this.cache?.get(url) : undefined;
    for (let attempt = 0; ; attempt += 1) {
      const canRetry = attempt < this.maxRetries;
      let answer: Answer;
      try {
        answer = await this.attempt(url, call, cached?.etag);
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (!(error instanceof QuireError) || !idempotent || !canRetry) throw error;
        await sleep(backoffMs(attempt), signal);
        continue;
      }
      // Parsed afresh each time: the caller may change what it gets without touching the cache.
      const read = (text: string) => (call.as === 'text' ? text : parse({ ...answer, text })) as T;
      if (answer.status === 304 && cached) return read(cached.text);
      if (answer.status >= 200 && answer.status < 300) {
        if (call.method === 'GET') this.cache?.remember(url, keepableEtag(answer.headers), answer.text);
        return read(answer.text);
      }
      if (answer.status === 404) this.cache?.forget(url);

      const error = QuireError.fromAnswer(answer);
      const retryable = answer.status === 429 || (idempotent && RETRY_STATUSES.has(answer.status));
      if (!retryable || !canRetry) throw error;
      // A 429 and a 503 (the database or storage away) say how long to wait; the backoff is the least wait.
      const wait = Math.max((error.retryAfter ?? 0) * 1000, backoffMs(attempt));
      if (wait > this.maxRetryDelayMs) throw error;
      await sleep(wait, signal);
    }
  }

  /** The ETag of the answer the cache holds for a GET of `path` (no query), if any. */
  heldEtag(path: string): string | undefined {
    return this.cache?.get(`${this.root}${path}${queryString(this.access.query)}`)?.etag;
  }

  /** One attempt; a failure to get any answer becomes a QuireError (TIMEOUT or NETWORK_ERROR). */
  private async attempt(url: string, call: Call, etag: string | undefined): Promise<Answer> {
    const timeoutMs = call.options?.timeoutMs ?? this.timeoutMs;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const outer = call.options?.signal;
    const forward = () => controller.abort(outer!.reason);
    outer?.addEventListener('abort', forward, { once: true });
    const headers: Record<string, string> = {
      ...call.headers,
      Accept: 'application/json',
      ...this.access.headers,
    };
    if (etag !== undefined) headers['If-None-Match'] = etag;
    let body: string | FormData | undefined;
    if (call.form) body = call.form;
    else if (call.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(call.json);
    }
    try {
      const response = await this.fetch(url, { method: call.method, headers, body, signal: controller.signal });
      // The body is read here, under the same timeout, so a server that stalls mid-body times out too.
      return { status: response.status, headers: response.headers, text: await response.text() };
    } catch (error) {
      if (outer?.aborted) throw outer.reason;
      if (controller.signal.aborted) {
        throw new QuireError('TIMEOUT', `${call.method} ${url} got no answer within ${timeoutMs} ms`, { cause: error });
      }
      throw new QuireError('NETWORK_ERROR', `${call.method} ${url} failed: ${(error as Error).message}`, {
        cause: error,
      });
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', forward);
    }
  }
}

/** The ETag to keep an answer under, or null: `no-store` (key listings) means not even in memory. */
function keepableEtag(headers: Headers): string | null {
  return /\bno-store\b/i.test(headers.get('cache-control') ?? '') ? null : headers.get('etag');
}

function parse(answer: Answer): unknown {
  if (answer.text === '') return undefined;
  try {
    return JSON.parse(answer.text);
  } catch (error) {
    throw new QuireError('INVALID_RESPONSE', `HTTP ${answer.status} with a body that is not JSON`, {
      status: answer.status,
      requestId: answer.headers.get('x-request-id'),
      cause: error,
    });
  }
}
