import type { FastifyRequest } from 'fastify';
import type { Actor } from '../security/actor.js';
import type { Permission } from '../security/permissions.js';
import type { Encoding } from '../http/encodings.js';
import { compress } from './compression.js';

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

/** A workspace's part of the cache: the newest content version stored, its keys, and the bytes they hold. */
interface Tenant {
  version: number;
  keys: Set<string>;
  bytes: number;
}

interface Slot {
  response: CachedResponse;
  referenced: boolean;
  tenant: Tenant;
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
 *
 * The cache is shared by every workspace of the process, and each gets a fair share of it: an entry of a
 * workspace holding no more than the bound divided among the workspaces present is passed over too, so one
 * workspace walking thousands of distinct URLs evicts its own answers, not a quiet workspace's hot ones
 * (docs/performance.md, "A thousand workspaces"). With one workspace, or all within their shares, it is the
 * plain CLOCK above.
 */
export class ResponseCache {
  readonly #entries = new Map<string, Slot>();
  /** Per workspace holding entries: its newest version, its keys and their bytes. */
  readonly #tenants = new Map<string, Tenant>();
  #bytes = 0;
  /** The responses the entries hold and whose they are, so an encoding added to one is counted while it is held. */
  readonly #held = new WeakMap<CachedResponse, Tenant>();

  constructor(readonly maxBytes: number) {}

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  /** Bytes held, for tests. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Bytes held for one workspace, for tests. */
  bytesOf(workspaceId: string): number {
    return this.#tenants.get(workspaceId)?.bytes ?? 0;
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
    const tenant = this.#held.get(response);
    if (tenant) {
      this.#bytes += bytes.length;
      tenant.bytes += bytes.length;
    }
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
    let tenant = this.#tenants.get(workspaceId);
    // Read under a version a write has already superseded: it could never be served.
    if (tenant && version < tenant.version) return;
    if (!tenant || version > tenant.version) {
      if (tenant) for (const stale of tenant.keys) this.#delete(stale);
      tenant = { version, keys: new Set(), bytes: 0 };
      this.#tenants.set(workspaceId, tenant);
    }
    this.#delete(key);
    this.#makeRoom(workspaceId, tenant, size);
    // The delete, or the room made, may have taken the workspace's last entry and its record with it.
    this.#tenants.set(workspaceId, tenant);
    this.#entries.set(key, { response, referenced: false, tenant });
    this.#bytes += size;
    tenant.bytes += size;
    this.#held.set(response, tenant);
    tenant.keys.add(key);
  }

  /** Evicts until `size` more bytes fit for an entry of `incoming`; room first, so the new entry is not evicted. */
  #makeRoom(workspaceId: string, incoming: Tenant, size: number): void {
    if (this.#bytes + size <= this.maxBytes) return;
    const present = this.#tenants.size + (this.#tenants.get(workspaceId) === incoming ? 0 : 1);
    const share = this.maxBytes / present;
    // Each entry is passed over at most once per call for each reason, so this ends whatever the entries are.
    let secondChances = this.#entries.size;
    let sparedShares = this.#entries.size;
    while (this.#bytes + size > this.maxBytes) {
      const [oldest, slot] = this.#entries.entries().next().value!;
      let spared = false;
      if (slot.referenced && secondChances > 0) {
        secondChances -= 1;
        slot.referenced = false;
        spared = true;
      } else if (sparedShares > 0 && slot.tenant.bytes + (slot.tenant === incoming ? size : 0) <= share) {
        sparedShares -= 1;
        spared = true;
      }
      this.#entries.delete(oldest);
      if (spared) this.#entries.set(oldest, slot);
      else {
        this.#bytes -= sizeOf(slot.response);
        slot.tenant.bytes -= sizeOf(slot.response);
        this.#held.delete(slot.response);
        this.#unlist(oldest, slot.tenant);
      }
    }
  }

  #delete(key: string): void {
    const old = this.#entries.get(key);
    if (!old) return;
    this.#entries.delete(key);
    this.#bytes -= sizeOf(old.response);
    old.tenant.bytes -= sizeOf(old.response);
    this.#held.delete(old.response);
    this.#unlist(key, old.tenant);
  }

  /** Forgets an entry's key in its workspace's list, and the workspace once it has none. */
  #unlist(key: string, tenant: Tenant): void {
    tenant.keys.delete(key);
    if (tenant.keys.size > 0) return;
    const [workspaceId = ''] = key.split('\n', 1);
    if (this.#tenants.get(workspaceId) === tenant) this.#tenants.delete(workspaceId);
  }
}
