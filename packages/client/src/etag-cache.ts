/** What the client keeps of a GET answer that carried an ETag: enough to send If-None-Match and rebuild it on 304. */
export interface CachedAnswer {
  etag: string;
  text: string;
}

export interface EtagCacheOptions {
  /**
   * The most answer text kept, counted in characters (about bytes for JSON, which is mostly ASCII);
   * default 16 MiB. The least recently used answers go first; an answer larger than this is not kept.
   */
  maxBytes?: number;
}

export const DEFAULT_ETAG_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * The bodies of GET answers by URL, with their ETags, bounded in size: a repeated GET sends
 * `If-None-Match`, and a 304 is answered from here without the body crossing the network again.
 * A Map iterates in insertion order, so re-inserting an entry on use keeps the least recently used first.
 */
export class EtagCache {
  private readonly entries = new Map<string, CachedAnswer>();
  private bytes = 0;
  readonly maxBytes: number;

  constructor({ maxBytes = DEFAULT_ETAG_CACHE_BYTES }: EtagCacheOptions = {}) {
    if (!(maxBytes >= 0)) throw new TypeError('Quire: cache.maxBytes must be a number of bytes, 0 or more');
    this.maxBytes = maxBytes;
  }

  /** The entry for `url`, now the most recently used. */
  get(url: string): CachedAnswer | undefined {
    const entry = this.entries.get(url);
    if (entry) {
      this.entries.delete(url);
      this.entries.set(url, entry);
    }
    return entry;
  }

  /** Keeps a 200's body under its ETag; an answer without one replaces nothing stale, it removes it. */
  remember(url: string, etag: string | null, text: string): void {
    this.forget(url);
    if (etag === null || text.length > this.maxBytes) return;
    this.entries.set(url, { etag, text });
    this.bytes += text.length;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.text.length;
    }
  }

  forget(url: string): void {
    const entry = this.entries.get(url);
    if (!entry) return;
    this.entries.delete(url);
    this.bytes -= entry.text.length;
  }

  /** How much answer text is kept, in the unit of `maxBytes`. */
  get size(): number {
    return this.bytes;
  }
}
