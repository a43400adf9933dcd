import crypto from 'node:crypto';
import type { DatabaseHandle } from '../db/database.js';
import { AppError } from '../errors.js';
import { can, type Actor } from '../security/actor.js';
import type { ChangeAction, ResourceType } from './changes.js';
import { contentEventsRepository } from './content-events.repository.js';
import { eventType, READ_PERMISSION } from './event-types.js';

/** One content event as the change feed answers it. */
export interface ChangeEvent {
  /** The event's number: unique, and increasing in commit order within the workspace. */
  seq: number;
  /** `post.published` …: eventType() of the type and action. */
  event: string;
  type: ResourceType;
  /** The resource's id. */
  id: string;
  /**
   * Its slug after the write (before it, for a deletion); null for resources without one. In the published view,
   * a post's or page's slug as it is now, and null when it is not published now.
   */
  slug: string | null;
  action: ChangeAction;
  timestamp: string;
}

export interface ChangesPage {
  data: ChangeEvent[];
  /**
   * The cursor to ask with next: before the first event this answer could not hold, or after every event
   * committed so far.
   */
  next: string;
  /** More events were committed already than this answer holds: ask again at once. */
  hasMore: boolean;
  /** The cursor after every event committed so far, whatever this answer holds: where "from now on" starts. */
  head: string;
}

/**
 * What a reader sees beyond its key's permissions. `published`: what a content key may see, since it ships in
 * public pages: a post's or page's events only while it is published, or the one that withdraws it, without
 * its slug unless it is published now (contentEventsRepository's EventFilter).
 */
export interface FeedView {
  published?: boolean;
}

const RESOURCE_TYPES = Object.keys(READ_PERMISSION) as ResourceType[];

/** The resource types whose events `actor` may see; undefined when it may see them all. */
export function visibleTypes(actor: Actor): ResourceType[] | undefined {
  const types = RESOURCE_TYPES.filter((type) => can(actor, READ_PERMISSION[type]));
  return types.length === RESOURCE_TYPES.length ? undefined : types;
}

/**
 * A short mark of the workspace in every cursor, so that a cursor of another workspace is refused by name
 * rather than read as a position in this one (numbers are shared by all workspaces).
 */
function workspaceMark(workspaceId: string): string {
  return crypto.hash('sha256', workspaceId, 'base64url').slice(0, 8);
}

const CURSOR = /^([A-Za-z0-9_-]{8})\.(0|[1-9][0-9]{0,15})$/;

/** The opaque cursor after event `seq` of a workspace: base64url of its mark and the number. */
export function cursorAfter(workspaceId: string, seq: number): string {
  return Buffer.from(`${workspaceMark(workspaceId)}.${seq}`).toString('base64url');
}

const badCursor = (message: string, reason?: string) =>
  new AppError('BAD_REQUEST', message, {
    issues: [{ in: 'query', path: '/after', message }],
    ...(reason === undefined ? {} : { reason }),
  });

/** The event number a cursor stands after; a cursor this feed did not give, or gave another workspace, is a 400. */
export function readCursor(workspaceId: string, cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('latin1');
  const match = CURSOR.exec(text);
  // Decoding skips what is not base64url; encoding again tells a cursor from a string that only decodes.
  if (!match || Buffer.from(text, 'latin1').toString('base64url') !== cursor || !Number.isSafeInteger(Number(match[2])))
    throw badCursor('not a cursor of this change feed');
  if (match[1] !== workspaceMark(workspaceId)) throw badCursor("a cursor of another workspace's change feed");
  return Number(match[2]);
}

/**
 * A page of the workspace's change feed: its events after the cursor (from the oldest kept without one), in
 * commit order, of the resource types the key may read (and of the view), at most `limit`.
 *
 * Numbers are drawn in commit order within a workspace (migration 0011), so the newest number read before the
 * events bounds a set in which every event has committed: no event can commit later with a number below it,
 * and a reader that moves its cursor there misses nothing. A cursor behind what retention pruned could have
 * missed events that are gone: a 400 saying to resync, never a feed with a hole in it.
 *
 * The events a reader may not see are filtered in the same statement, so `limit` counts shown events, and
 * `next` passes the hidden ones up to the first event not answered: whether an event is shown may change
 * (a draft published since), and a reader that passed it once is not shown it later.
 */
export async function readChanges(
  { db }: DatabaseHandle,
  actor: Actor,
  query: { after?: string; limit: number },
  view: FeedView = {},
): Promise<ChangesPage> {
  const { workspaceId } = actor;
  const after = query.after === undefined ? 0 : readCursor(workspaceId, query.after);
  const { latest, prunedThrough } = await contentEventsRepository.feedState(db, workspaceId);
  if (query.after !== undefined && after < prunedThrough)
    throw badCursor(
      'this cursor is older than the oldest event kept; read the content again in full, then follow the feed from its start',
      'cursor_expired',
    );
  const filter = { types: visibleTypes(actor), published: view.published === true };
  const rows = await contentEventsRepository.listBetween(db, workspaceId, after, latest, filter, query.limit + 1);
  const data = rows.slice(0, query.limit).map((row): ChangeEvent => ({
    seq: Number(row.seq),
    event: eventType(row.resource_type as ResourceType, row.action as ChangeAction),
    type: row.resource_type as ResourceType,
    id: row.resource_id,
    slug: row.slug,
    action: row.action as ChangeAction,
    timestamp: row.created_at,
  }));
  // Retention may have pruned every event, and a cursor behind what it pruned is refused: end after it.
  const head = Math.max(after, latest, prunedThrough);
  const unanswered = rows[query.limit];
  const next = unanswered === undefined ? head : Number(unanswered.seq) - 1;
  return {
    data,
    next: cursorAfter(workspaceId, next),
    hasMore: unanswered !== undefined,
    head: cursorAfter(workspaceId, head),
  };
}
