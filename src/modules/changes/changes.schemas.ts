import { Type, type Static } from 'typebox';
import { Fields } from '../../http/fields.js';
import { Nullable, Timestamp, Uuid } from '../../shared/schemas.js';
import { EVENT_TYPES } from '../../writes/event-types.js';

/** The most events one answer of the feed holds; 100 unless `limit` says otherwise. */
export const CHANGES_LIMIT = { default: 100, max: 1000 } as const;

export const ChangesQuery = Type.Object(
  {
    after: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        pattern: '^[A-Za-z0-9_-]+$',
        description: 'The `next` of an earlier answer; without it the feed starts at its oldest kept event.',
      }),
    ),
    limit: Type.Integer({ minimum: 1, maximum: CHANGES_LIMIT.max, default: CHANGES_LIMIT.default }),
    fields: Fields,
  },
  { additionalProperties: false },
);
export type ChangesQuery = Static<typeof ChangesQuery>;

const RESOURCE_TYPES = ['post', 'page', 'media', 'author', 'category', 'tag', 'redirect', 'settings'];
const ACTIONS = ['created', 'updated', 'published', 'unpublished', 'archived', 'deleted', 'attached', 'detached'];
const oneOf = (values: readonly string[]) => Type.Unsafe<string>({ type: 'string', enum: [...values] });

export const ChangeEvent = Type.Object({
  seq: Type.Integer({ minimum: 1, description: 'The event’s number: increasing in commit order in the workspace.' }),
  event: oneOf(EVENT_TYPES),
  type: oneOf(RESOURCE_TYPES),
  id: Uuid,
  slug: Nullable(Type.String()),
  action: oneOf(ACTIONS),
  timestamp: Timestamp,
});

export const ChangesPage = Type.Object({
  data: Type.Array(ChangeEvent),
  next: Type.String({ description: 'The cursor to ask with next (`after`).' }),
  hasMore: Type.Boolean({ description: 'More events are there already: ask again at once.' }),
});
