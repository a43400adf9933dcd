import type { Actor } from '../security/actor.js';
import type { Permission } from '../security/permissions.js';

export type SurrogateSource =
  | { item: 'post' | 'page' | 'author' | 'tag' | 'category' | 'media' | 'redirect' }
  | { collection: ReadonlyArray<'post' | 'page' | 'author' | 'tag' | 'category' | 'redirect'> };

// What a module's route says of itself and what its handler is given: declared with the route kit, below the
// modules, and read by the front door (server/auth.ts, server/caching.ts, server/response-cache.ts).
declare module 'fastify' {
  interface FastifyContextConfig {
    /** The one permission an external route needs (contract §3). */
    permission?: Permission;
    /** A write that holders of the resource's `:draft` permission may make too, held to drafts by its service. */
    draft?: boolean;
    /** Responses that must never be stored anywhere (key material): `Cache-Control: no-store`, no ETag. */
    noStore?: boolean;
    /** False for GETs whose answer changes without a content write (telemetry such as link-health). */
    cacheable?: boolean;
    /**
     * Content API: what an answer's surrogate keys are drawn from (server/content.ts, modules/cdn): the one
     * resource it is (and what it embeds), or the collections it lists.
     */
    surrogate?: SurrogateSource;
  }
  interface FastifyRequest {
    /** Who is asking: the key's creator in the key's workspace, resolved by the edge for every request. */
    actor: Actor;
  }
}
