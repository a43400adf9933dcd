import type { FastifyRequest } from 'fastify';
import type { Actor } from '../security/actor.js';
import type { Permission } from '../security/permissions.js';
import { compress, type Encoding } from './compression.js';

export interface CachedResponse {
  /** The UTF-8 bytes, so a hit is written out without encoding the text again. */
  payload: Buffer;
  etag: string;
  contentType: string;
  /** The permission the answering route needs, checked again for every key a hit is served to. */
  permission: Permission | undefined;
  /** The surrogate keys a content API answer names (its shared cache's purges), kept with it. */
  surrogateKeys?: readonly string[];
  /** The payload compressed, per encoding a client has asked for: compressed once, then sent as kept. */
  encoded?: Partial<Record<Encoding, Buffer>>;
}

/** The bytes an entry holds: its payload and the encodings kept of it. */
function sizeOf(response: CachedResponse): number {
  let size = response.payload.length;
  for (const bytes of Object.values(response.encoded ?? {})) size += bytes.length;
  return size;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The key this GET's answer is cached under, set when it may be cached. */
    responseCacheKey?: string;
  }
}

/**
 * Serialized GET answers of the external API, bounded in bytes. The key holds the workspace's content
 * version as the request's own authentication query read it, and every content write bumps that
 * version in its transaction: an answer cached before a write is never found after it, so nothing is
 * ever served stale, on one instance or many.
 *
 * An answer of a version older than the newest one seen for its workspace can never be found again,
 * so entries of a workspace's older versions are dropped as soon as an answer of a newer one is stored,
 * rather than waiting to be evicted: with a write before every read, stale list pages otherwise
 * filled the whole bound.
 *
 * Eviction is second-chance (CLOCK) rather than strict LRU: a hit only marks its entry, where moving
 * it to the young end of the Map was a measurable share of a cached answer; when room is needed, the oldest
 * entry goes unless it was read since it was last passed over, in which case it moves young instead.
 */
export class ResponseCache {
  readonly #entries = new Map<string, { response: CachedResponse; referenced: boolean }>();
  /** Per workspace: the newest content version stored, and the keys stored under it. */
  readonly #versions = new Map<string, { version: number; keys: Set<string> }>();
  #bytes = 0;
  /** The responses the entries hold, so an encoding added to one is counted only while it is held. */
  readonly #held = new WeakSet<CachedResponse>();

  constructor(readonly maxBytes: number) {}

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  /** Bytes held, for tests. */
  get bytes(): number {
    return this.#bytes;
  }

  keyFor(request: FastifyRequest): string | undefined {
    const { config } = request.routeOptions;
    if (!this.enabled || request.method !== 'GET' || config.noStore || config.cacheable === false || !request.actor)
      return undefined;
    return this.key(request.actor, request.url);
  }

  /** Only URLs of cacheable routes are ever stored, so a lookup by any URL is safe. */
  key(actor: Actor, url: string): string {
    return `${actor.workspaceId}\n${actor.contentVersion}\n${url}`;
  }

  /** The entry's payload in `encoding`, compressed on the first request for it and kept (and counted) with it. */
  encoded(response: CachedResponse, encoding: Encoding): Buffer {
    const kept = response.encoded?.[encoding];
    if (kept) return kept;
    const bytes = compress(response.payload, encoding);
    response.encoded = { ...response.encoded, [encoding]: bytes };
    // An entry evicted meanwhile is no longer counted; its encodings go with it.
    if (this.#held.has(response)) this.#bytes += bytes.length;
    return bytes;
  }

  get(key: string): CachedResponse | undefined {
    const slot = this.#entries.get(key);
    if (!slot) return undefined;
    slot.referenced = true;
    return slot.response;
  }

  set(key: string, response: CachedResponse): void {
    const size = response.payload.length;
    if (size > this.maxBytes / 8) return;
    const [workspaceId = '', versionText] = key.split('\n', 2);
    const version = Number(versionText);
    let current = this.#versions.get(workspaceId);
    // Read under a version a write has already superseded: it could never be served.
    if (current && version < current.version) return;
    if (!current || version > current.version) {
      if (current) for (const stale of current.keys) this.#delete(stale);
      current = { version, keys: new Set() };
      this.#versions.set(workspaceId, current);
    }
    this.#delete(key);
    // Room first, then the new entry, so that it is not the one passed over last and evicted.
    let secondChances = this.#entries.size;
    while (this.#bytes + size > this.maxBytes) {
      const [oldest, slot] = this.#entries.entries().next().value!;
      this.#entries.delete(oldest);
      // Each entry is passed over at most once per call, so this ends even if every entry was read.
      if (slot.referenced && secondChances-- > 0) {
        slot.referenced = false;
        this.#entries.set(oldest, slot);
      } else {
        this.#bytes -= sizeOf(slot.response);
        this.#held.delete(slot.response);
        this.#unlist(oldest);
      }
    }
    this.#entries.set(key, { response, referenced: false });
    this.#bytes += size;
    this.#held.add(response);
    // Making room may have evicted the workspace's last other entry, and its record with it.
    if (!this.#versions.has(workspaceId)) this.#versions.set(workspaceId, current);
    current.keys.add(key);
  }

  #delete(key: string): void {
    const old = this.#entries.get(key);
    if (!old) return;
    this.#entries.delete(key);
    this.#bytes -= sizeOf(old.response);
    this.#held.delete(old.response);
    this.#unlist(key);
  }

  /** Forgets an entry's key in its workspace's list, and the workspace once it has none. */
  #unlist(key: string): void {
    const [workspaceId = ''] = key.split('\n', 1);
    const current = this.#versions.get(workspaceId);
    if (!current) return;
    current.keys.delete(key);
    if (current.keys.size === 0) this.#versions.delete(workspaceId);
  }
}
