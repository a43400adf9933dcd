import type { Actor } from '../security/actor.js';
import type { Permission } from '../security/permissions.js';

// What a module's route says of itself and what its handler is given: declared with the route kit, below the
// modules, and read by the front door (server/auth.ts, server/caching.ts, server/response-cache.ts).
declare module 'fastify' {
  interface FastifyContextConfig {
    /** The one permission an external route needs (contract §3). */
    permission?: Permission;
    /** Responses that must never be stored anywhere (key material): `Cache-Control: no-store`, no ETag. */
    noStore?: boolean;
    /** False for GETs whose answer changes without a content write (telemetry such as link-health). */
    cacheable?: boolean;
  }
  interface FastifyRequest {
    /** Who is asking: the key's creator in the key's workspace, resolved by the edge for every request. */
    actor: Actor;
  }
}
