import type { FastifyRequest } from 'fastify';

export interface CachedResponse {
  /** The UTF-8 bytes, so a hit is written out without encoding the text again. */
  payload: Buffer;
  etag: string;
  contentType: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** False for GETs whose answer changes without a content write (telemetry such as link-health). */
    cacheable?: boolean;
  }
  interface FastifyRequest {
    /** The key this GET's answer is cached under, set when it may be cached. */
    responseCacheKey?: string;
  }
}

/**
 * Serialized GET answers of the external API, bounded in bytes, least recently used out first.
 * The key holds the workspace's content version as the request's own authentication query read it,
 * and every content write bumps that version in its transaction: an answer cached before a write is
 * never found after it, so nothing is ever served stale, on one instance or many.
 */
export class ResponseCache {
  readonly #entries = new Map<string, CachedResponse>();
  #bytes = 0;

  constructor(readonly maxBytes: number) {}

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  keyFor(request: FastifyRequest): string | undefined {
    const { config } = request.routeOptions;
    if (!this.enabled || request.method !== 'GET' || config.noStore || config.cacheable === false || !request.actor) return undefined;
    return `${request.actor.workspaceId}\n${request.actor.contentVersion}\n${request.url}`;
  }

  get(key: string): CachedResponse | undefined {
    const entry = this.#entries.get(key);
    if (entry) {
      // Re-inserting moves the entry to the young end of the Map's order.
      this.#entries.delete(key);
      this.#entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, entry: CachedResponse): void {
    const size = entry.payload.length;
    if (size > this.maxBytes / 8) return;
    const old = this.#entries.get(key);
    if (old) {
      this.#entries.delete(key);
      this.#bytes -= old.payload.length;
    }
    this.#entries.set(key, entry);
    this.#bytes += size;
    for (const [oldest, value] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= value.payload.length;
    }
  }
}
