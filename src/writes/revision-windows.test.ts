import { describe, expect, it } from 'vitest';
import type { Writer } from '../security/writer.js';
import { mergesInto, openedAt, type NewestRevision } from './revision-windows.js';

const OPENED = '2030-01-01T00:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(OPENED) + seconds * 1000).toISOString();
const draft = { status: 'draft' };
const published = { status: 'published' };
// The command line writes with neither a user nor a key; a dashboard session with a user and no key.
const cli: Writer = { workspaceId: 'w', userId: null, apiKeyId: null };
const session: Writer = { workspaceId: 'w', userId: 'u', apiKeyId: null };
const open = (writer: Writer): NewestRevision => ({
  n: 2,
  action: 'updated',
  actor_user_id: writer.userId,
  actor_api_key_id: writer.apiKeyId,
  opened_at: OPENED,
});

describe('revision windows', () => {
  it("opens a window for a draft's update only, and never for a writer that is a step of its own", () => {
    expect(openedAt('updated', draft, session, OPENED)).toBe(OPENED);
    expect(openedAt('updated', published, session, OPENED)).toBeNull();
    for (const action of ['created', 'published', 'unpublished', 'archived'] as const)
      expect(openedAt(action, draft, session, OPENED)).toBeNull();
    expect(openedAt('updated', draft, { ...session, ownRevision: true }, OPENED)).toBeNull();
  });

  it('merges a save into an open revision of the same writer, nulls equal, for less than the window', () => {
    expect(mergesInto(open(cli), cli, at(299), 300)).toBe(true);
    expect(mergesInto(open(session), session, at(299.999), 300)).toBe(true);
    expect(mergesInto(open(session), session, at(300), 300)).toBe(false);
    expect(mergesInto(open(session), cli, at(1), 300)).toBe(false);
    expect(mergesInto(open(cli), session, at(1), 300)).toBe(false);
    expect(mergesInto(open(session), { ...session, apiKeyId: 'k' }, at(1), 300)).toBe(false);
    expect(mergesInto(open(session), session, at(0), 0)).toBe(false);
  });

  it('never merges into a closed revision, another action, or none', () => {
    expect(mergesInto({ ...open(session), opened_at: null }, session, at(1), 300)).toBe(false);
    expect(mergesInto({ ...open(session), action: 'published' }, session, at(1), 300)).toBe(false);
    expect(mergesInto(undefined, session, at(1), 300)).toBe(false);
  });
});
