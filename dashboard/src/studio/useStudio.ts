import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, ApiError, describeError, patchIfMatch, request, unavailableFor, ws } from '../api';
import { keys } from '../queries';
import type { Page, Pending, Post } from '../types';
import { inWords } from '../validation-words';
import { clearDraft, draftKey, readDraft, writeDraft, type LocalDraft } from './drafts';
import { pendingChanges, sameChanges, withChanges } from './pending-fields';
import { changedFields, fieldsOf, type EditableFields } from './post-fields';
import type { DocumentHandle } from './document/DocumentEditor';
import { localIssues, slugify, unfinished, type EditorBlock } from './model';
import { theirsOf, type Theirs } from './theirs';
import { usePending } from './usePending';

export type Kind = 'post' | 'page';
export interface SaveOptions {
  status?: string;
  /** Overwrite whatever the server holds at this version (after a 409): every field is sent. */
  overwrite?: string;
  /** Of a live post or page: Update, the pending changes written to the live version (with `status`, if any). */
  apply?: boolean;
}
export type Resource = Post | Page;

/** How long the writer pauses before the editor saves on its own. */
export const AUTOSAVE_MS = 1500;
/** How long a keystroke waits before it is copied to localStorage (cheap, but not per keystroke). */
const LOCAL_MS = 250;

export type SaveState =
  | { kind: 'idle' }
  | { kind: 'unsaved' }
  | { kind: 'saving' }
  | { kind: 'saved'; at: string }
  | { kind: 'error'; message: string }
  /**
   * A save or an Update refused as out of date (`version`: theirs, when the server said): `live` the live version
   * moved, `set` another writer saved the pending changes, `gone` they were applied or discarded elsewhere.
   */
  | { kind: 'conflict'; version: string; reason: Theirs['reason'] };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Whether the studio's saves of this copy go to its pending set rather than to the live version. */
export const isLive = (resource: Resource | null): boolean => resource?.status === 'published';

/**
 * The server's 400 issues by JSON Pointer, in a writer's words (validation-words.ts). A pending set's refusals
 * name the field under `/changes`, where the set's body holds it; the editor knows it by its own pointer.
 */
function issuesOf(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || !Array.isArray(error.details?.issues)) return {};
  const out: Record<string, string> = {};
  for (const issue of error.details.issues as Array<{ path?: string; message?: string }>) {
    const path = (issue.path ?? '').replace(/^\/changes(?=\/|$)/, '');
    const field = path.split('/').pop() ?? '';
    const words = inWords(issue.message ?? 'is not valid', field);
    if (words !== null) out[path] ??= words;
  }
  return out;
}

export function useStudio(workspaceId: string, kind: Kind, id: string | null, onCreated: (created: Resource) => void) {
  const collection = kind === 'post' ? '/posts' : '/pages';
  const queryClient = useQueryClient();
  const [base, setBase] = useState<Resource | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [loading, setLoading] = useState(id !== null);
  const [fields, setFields] = useState<EditableFields>(() => fieldsOf(kind, null));
  // The body as the surface last reported it, and what it is told to show (a new generation replaces its document).
  const [blocks, setBlocksState] = useState<EditorBlock[]>([]);
  // The same, read by a save at once (the state is the last render's).
  const latestBlocks = useRef<EditorBlock[]>([]);
  const setBlocks = useCallback((next: EditorBlock[]) => {
    latestBlocks.current = next;
    setBlocksState(next);
  }, []);
  const [body, setBody] = useState<{ blocks: readonly EditorBlock[]; generation: number }>({
    blocks: [],
    generation: 0,
  });
  const editor = useRef<DocumentHandle>(null);
  const show = useCallback((next: EditorBlock[]) => {
    setBlocks(next);
    setBody((b) => ({ blocks: next, generation: b.generation + 1 }));
  }, []);
  const [save, setSave] = useState<SaveState>({ kind: 'idle' });
  const [serverIssues, setServerIssues] = useState<Record<string, string>>({});
  const [offered, setOffered] = useState<LocalDraft | null>(null);
  // After a save refused as out of date: the other side, to compare and merge with (ConflictPanel).
  const [theirs, setTheirs] = useState<Theirs | null>(null);
  // While the post is live, where its saves go until Update.
  const unpublished = usePending(workspaceId, kind);
  const { setPending } = unpublished;
  // The live version a pending set found out of date on opening was made on (`live`: the version it is not).
  const origin = useRef<{ live: string; fields: EditableFields } | null>(null);
  // Counts edits: a save that finishes while this moved has not saved everything.
  const edits = useRef(0);
  const [editCount, setEditCount] = useState(0);
  const inFlight = useRef(false);
  const key = draftKey(workspaceId, kind, base?.id ?? id);
  const baseId = useRef<string | null>(null);
  baseId.current = base?.id ?? null;
  // The copy as last stored, for whoever awaits a save (a submission for review) before the next render.
  const latest = useRef<Resource | null>(null);
  latest.current = base;
  const itemPath = (resourceId: string) => ws(workspaceId, `${collection}/${encodeURIComponent(resourceId)}`);

  /** Shows a stored copy: the live version, and the pending changes in it when it has a set. */
  const load = useCallback(
    (resource: Resource | null, set: Pending | null = null) => {
      setBase(resource);
      setPending(set);
      origin.current = null;
      const live = fieldsOf(kind, resource);
      const next = set ? withChanges(kind, live, set.changes) : live;
      setFields(next);
      show(next.bodyJson);
    },
    [kind, show, setPending],
  );

  useEffect(() => {
    let live = true;
    // "new" became this id by its first save: the editor already holds it, and what was typed since.
    if (id !== null && baseId.current === id) return;
    const stored = readDraft(draftKey(workspaceId, kind, id));
    if (id === null) {
      load(null);
      if (stored) setOffered(stored);
      return;
    }
    setLoading(true);
    const open = async () => {
      const resource = await api.get<Resource>(ws(workspaceId, `${collection}/${encodeURIComponent(id)}`));
      const set = isLive(resource) ? await unpublished.read(resource.id) : null;
      // Changes made on a live version replaced since are merged from that version, which the set keeps.
      const madeOn = set?.stale ? set.base : null;
      return { resource, set, madeOn };
    };
    open().then(
      ({ resource, set, madeOn }) => {
        if (!live) return;
        load(resource, set);
        setLoading(false);
        const liveFields = fieldsOf(kind, resource);
        const shown = set ? withChanges(kind, liveFields, set.changes) : liveFields;
        // Offered back only when it holds something the server copy does not.
        if (stored && !same({ ...stored.fields, slugEdited: true }, { ...shown, slugEdited: true })) setOffered(stored);
        if (set?.stale) {
          origin.current = {
            live: resource.updatedAt,
            fields: madeOn ? withChanges(kind, liveFields, madeOn) : liveFields,
          };
          setSave({ kind: 'conflict', version: resource.updatedAt, reason: 'live' });
        }
      },
      (error: unknown) => {
        if (!live) return;
        setLoadError(error);
        setLoading(false);
      },
    );
    return () => {
      live = false;
    };
  }, [workspaceId, kind, id, collection, load]);

  const current = useCallback((): EditableFields => ({ ...fields, bodyJson: latestBlocks.current }), [fields, blocks]);

  const edited = () => {
    edits.current += 1;
    setEditCount(edits.current);
    setSave((s) => (s.kind === 'conflict' ? s : { kind: 'unsaved' }));
  };

  const update = (changes: Partial<EditableFields>) => {
    setFields((f) => {
      const next = { ...f, ...changes };
      if ('title' in changes && !next.slugEdited) next.slug = slugify(next.title);
      return next;
    });
    edited();
  };
  /** What the surface reports: every change of its document, `edited` when the writer made it. */
  const bodyChanged = useCallback((next: EditorBlock[], byWriter: boolean) => {
    setBlocks(next);
    if (!byWriter) return;
    edits.current += 1;
    setEditCount(edits.current);
    setSave((s) => (s.kind === 'conflict' ? s : { kind: 'unsaved' }));
  }, []);

  // Every edit lands in localStorage shortly after, so a reload or a crashed tab loses nothing.
  useEffect(() => {
    if (editCount === 0) return;
    const timer = window.setTimeout(
      () => writeDraft(key, { fields: current(), baseVersion: base?.updatedAt ?? null, at: new Date().toISOString() }),
      LOCAL_MS,
    );
    return () => window.clearTimeout(timer);
  }, [editCount, key, current, base]);

  const local = localIssues(fields.title, fields.excerpt, blocks);
  const issues = { ...local, ...serverIssues };
  const waiting = unfinished(blocks);
  const blocking = Object.keys(local).length > 0 || waiting !== null;

  // A save asked for while one is running (Publish pressed during an autosave) runs when that one is done.
  const queued = useRef<SaveOptions | null>(null);
  // A save the server refused for a while (503): back to "unsaved" after its Retry-After, so autosave runs again.
  const retryTimer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(retryTimer.current), []);
  const [queueTick, setQueueTick] = useState(0);
  // Told how the queued save ended (saveNow).
  const waiters = useRef<Array<(ok: boolean) => void>>([]);

  /** What a save wrote to the post or page itself (null: nothing, or only its pending set), and as of when. */
  interface Saved {
    written: Resource | null;
    at: string;
    tags: boolean;
  }

  /** A draft's (or a new, scheduled or archived copy's) save, and any status move: a PATCH of what changed. */
  const saveDirectly = async (now: EditableFields, options: SaveOptions): Promise<Saved> => {
    const body = changedFields(kind, now, !base ? 'create' : options.overwrite ? 'all' : fieldsOf(kind, base));
    if (options.status && options.status !== base?.status) body.status = options.status;
    const tagsBefore = base ? fieldsOf(kind, base).tagIds : [];
    const attach = kind === 'post' ? now.tagIds.filter((t) => !tagsBefore.includes(t)) : [];
    const detach = kind === 'post' ? tagsBefore.filter((t) => !now.tagIds.includes(t)) : [];
    // Nothing differs from the server's copy: no request, so no revision.
    if (base && Object.keys(body).length === 0 && attach.length === 0 && detach.length === 0)
      return { written: null, at: base.updatedAt, tags: false };
    setSave({ kind: 'saving' });
    let answer: Resource;
    if (!base) answer = await api.post<Resource>(ws(workspaceId, collection), body);
    else if (Object.keys(body).length > 0)
      answer = await patchIfMatch<Resource>(itemPath(base.id), body, options.overwrite ?? base.updatedAt);
    else answer = base;
    const tagsPath = ws(workspaceId, `/posts/${answer.id}/tags`);
    if (attach.length > 0) answer = await api.post<Resource>(tagsPath, { tagIds: attach });
    if (detach.length > 0) answer = await request<Resource>('DELETE', tagsPath, { tagIds: detach });
    return { written: answer, at: answer.updatedAt, tags: attach.length > 0 || detach.length > 0 };
  };

  /**
   * A live copy's save: what differs from the live version goes to its pending set (none left: the set goes), and
   * the live version is written only by Update (`apply`), the set's changes at once with the status move, if any.
   */
  const saveToSet = async (live: Resource, now: EditableFields, options: SaveOptions): Promise<Saved> => {
    const changes = pendingChanges(kind, now, fieldsOf(kind, live));
    const empty = Object.keys(changes).length === 0;
    let set = unpublished.latest.current;
    const kept = set ? set.baseVersion === live.updatedAt && sameChanges(set.changes, changes) : empty;
    if (!kept) {
      setSave({ kind: 'saving' });
      set = empty ? await unpublished.discard(live.id) : await unpublished.save(live.id, live.updatedAt, changes);
    }
    if (!options.apply || (!set && !options.status))
      return { written: null, at: set?.updatedAt ?? live.updatedAt, tags: false };
    setSave({ kind: 'saving' });
    // With nothing pending a status move is the plain PATCH of the status.
    const written = set
      ? await unpublished.apply(live.id, options.status)
      : await patchIfMatch<Resource>(itemPath(live.id), { status: options.status }, live.updatedAt);
    return { written, at: written.updatedAt, tags: set?.changes.tagIds !== undefined };
  };

  /** A save refused: the conflict, the slug, the server away for a while, or the values it names. */
  const refused = (error: unknown) => {
    const reason = error instanceof ApiError && error.status === 409 ? error.details?.reason : undefined;
    if (reason === 'stale' || reason === 'not_live' || reason === 'pending_changed') {
      const version = (error as ApiError).details?.version;
      setSave({
        kind: 'conflict',
        version: typeof version === 'string' ? version : '',
        reason: reason !== 'pending_changed' ? 'live' : version ? 'set' : 'gone',
      });
      void compare();
    } else if (error instanceof ApiError && error.status === 409) {
      setServerIssues({ '/slug': 'Another post or page already has this slug. Choose another.' });
      setSave({ kind: 'error', message: 'Not saved: the slug is taken.' });
    } else if (unavailableFor(error) !== null) {
      // The server is fine and will be back: the text stays in this browser, and the save runs again by itself.
      const seconds = unavailableFor(error)!;
      setSave({
        kind: 'error',
        message: `Not saved yet: the server cannot reach its ${(error as ApiError).details?.dependency === 'storage' ? 'media storage' : 'database'} right now. Your text is kept in this browser; saving again in ${seconds} s.`,
      });
      window.clearTimeout(retryTimer.current);
      retryTimer.current = window.setTimeout(() => setSave({ kind: 'unsaved' }), seconds * 1000);
    } else {
      const found = issuesOf(error);
      setServerIssues(found);
      setSave({
        kind: 'error',
        message:
          Object.keys(found).length > 0
            ? 'Not saved: some values were not accepted. They are marked on their fields.'
            : `Not saved. ${describeError(error)}`,
      });
    }
  };

  const run = async (options: SaveOptions = {}): Promise<boolean> => {
    if (inFlight.current) {
      queued.current = { ...queued.current, ...options };
      return false;
    }
    // The surface reports after its next paint: a save pressed right after a key takes that key in too.
    editor.current?.flush();
    const now = current();
    if (!now.title.trim()) {
      setSave({ kind: 'error', message: 'Give it a title: it is needed before the first save.' });
      return false;
    }
    const unfinishedNow = unfinished(now.bodyJson);
    if (unfinishedNow) {
      setSave({ kind: 'error', message: unfinishedNow });
      return false;
    }
    if (Object.keys(localIssues(now.title, now.excerpt, now.bodyJson)).length > 0) {
      setSave({ kind: 'error', message: 'Some values are over the limits shown on their fields; fix them to save.' });
      return false;
    }
    const startedAt = edits.current;
    inFlight.current = true;
    try {
      const toSet = isLive(base) && (options.status === undefined || options.apply === true) && !options.overwrite;
      const { written, at, tags } = toSet ? await saveToSet(base!, now, options) : await saveDirectly(now, options);
      setServerIssues({});
      if (written) {
        // The lists, the post view and the tag counts read the saved version next time they are shown.
        void queryClient.invalidateQueries({ queryKey: keys.resource(workspaceId, `${kind}s`) });
        if (tags) void queryClient.invalidateQueries({ queryKey: keys.resource(workspaceId, 'tags') });
        setBase(written);
        latest.current = written;
      }
      // Keys the surface has taken but not yet reported (it reports after its next paint) count as typed meanwhile.
      editor.current?.flush();
      if (edits.current === startedAt) {
        if (written) {
          // Nothing typed meanwhile: take what the server derived (heading ids, image urls, a freed slug).
          const fresh = fieldsOf(kind, written);
          setFields(fresh);
          editor.current?.adopt(fresh.bodyJson);
          setBlocks(fresh.bodyJson);
        }
        clearDraft(key);
        clearDraft(draftKey(workspaceId, kind, null));
        setSave({ kind: 'saved', at });
      } else setSave({ kind: 'unsaved' });
      if (!base && written) onCreated(written);
      return true;
    } catch (error) {
      refused(error);
      return false;
    } finally {
      inFlight.current = false;
      if (queued.current) setQueueTick((n) => n + 1);
    }
  };

  // After the render that took the finished save's answer, so the queued one starts from it.
  useEffect(() => {
    const next = queued.current;
    if (queueTick === 0 || !next) return;
    queued.current = null;
    const told = waiters.current.splice(0);
    void run(next).then((ok) => {
      // Queued again behind a save that started first: told when that queued one ends.
      if (!ok && queued.current) waiters.current.unshift(...told);
      else for (const tell of told) tell(ok);
    });
  }, [queueTick]);

  // Autosave after a pause: only what exists (or has a title), never over a conflict or a value over a limit.
  useEffect(() => {
    if (editCount === 0 || save.kind !== 'unsaved' || blocking || !fields.title.trim()) return;
    const timer = window.setTimeout(() => void run(), AUTOSAVE_MS);
    return () => window.clearTimeout(timer);
    // `run` is a fresh closure each render; the edit count says when there is something new to save.
  }, [editCount, save.kind, blocking]);

  /**
   * Fetches the server's copies to show beside the writer's: the live version and, while the post is live, its
   * pending set (the conflict panel opens on them unless `quiet`).
   */
  const compare = async ({ quiet = false } = {}): Promise<Theirs | null> => {
    if (!base) return null;
    try {
      const live = await api.get<Resource>(itemPath(base.id));
      const wasLive = isLive(base);
      const set = wasLive ? await unpublished.read(base.id) : null;
      const from = origin.current?.live === base.updatedAt ? origin.current.fields : fieldsOf(kind, base);
      const found = theirsOf(kind, from, wasLive ? unpublished.latest.current : null, live, set);
      if (!quiet) setTheirs(found);
      return found;
    } catch {
      // The notice's Reload and Overwrite still work; Compare tries again.
      return null;
    }
  };

  /**
   * The writer's choice after a conflict: the live version now becomes the base (so only what differs from it is
   * sent, with its version in If-Match), the set on the server the one a save replaces, and the merged fields the
   * editor's; the save runs at once. Update stays the writer's to press again.
   */
  const adopt = (found: Theirs, merged: EditableFields) => {
    setBase(found.live);
    setPending(found.set);
    origin.current = null;
    // Someone unpublished it meanwhile: the merged copy is saved to the draft itself, and the set has no use.
    if (!isLive(found.live) && found.set) void unpublished.discard(found.live.id).catch(() => undefined);
    setFields(merged);
    show(merged.bodyJson);
    setTheirs(null);
    setServerIssues({});
    edits.current += 1;
    setEditCount(edits.current);
    setSave({ kind: 'unsaved' });
    const { apply: _apply, ...rest } = queued.current ?? {};
    queued.current = rest;
    setQueueTick((n) => n + 1);
  };

  const resolveConflict = (merged: EditableFields, version: string) => {
    if (!theirs || theirs.version !== version) return;
    adopt(theirs, merged);
  };

  /** Theirs, whole: the post as the server holds it now (while live, with the pending set there is now). */
  const reloadFromServer = async () => {
    if (!base) return;
    if (isLive(base)) {
      const found = theirs ?? (await compare({ quiet: true }));
      if (found) adopt(found, found.fields);
      return;
    }
    const fresh = await api.get<Resource>(itemPath(base.id));
    load(fresh);
    clearDraft(key);
    setServerIssues({});
    setSave({ kind: 'saved', at: fresh.updatedAt });
  };

  /** Mine, whole, over theirs: every field of a draft, or, while live, a set that makes Update write all of mine. */
  const overwrite = async () => {
    if (!isLive(base)) return void run({ overwrite: save.kind === 'conflict' ? save.version : undefined });
    const found = theirs ?? (await compare({ quiet: true }));
    if (found) adopt(found, current());
  };

  /**
   * Saves what is unsaved and answers the copy as stored; null when the save was refused (the save line says
   * why). An autosave under way is waited for: a second save now would only be queued behind it, unanswered.
   */
  const saveNow = (): Promise<Resource | null> =>
    new Promise((resolve) => {
      const answer = (ok: boolean) => resolve(ok ? latest.current : null);
      if (!inFlight.current) return void run().then(answer);
      queued.current = { ...queued.current };
      waiters.current.push(answer);
    });

  /** Whether Update would write anything: a pending set, or edits that differ from the live version. */
  const hasUnpublished = (): boolean =>
    base !== null &&
    isLive(base) &&
    (unpublished.latest.current !== null ||
      Object.keys(pendingChanges(kind, current(), fieldsOf(kind, base))).length > 0);

  /** A request about the live version that no save may overlap, its refusal shown as a save's would be. */
  const onLive = async (work: (live: Resource) => Promise<void>): Promise<boolean> => {
    if (!base || !isLive(base) || inFlight.current) return false;
    inFlight.current = true;
    try {
      await work(base);
      return true;
    } catch (error) {
      refused(error);
      return false;
    } finally {
      inFlight.current = false;
    }
  };

  /** Discard changes: the live version back in the editor, the set gone. */
  const discardChanges = (): Promise<boolean> =>
    onLive(async (live) => {
      if (unpublished.latest.current) {
        setSave({ kind: 'saving' });
        await unpublished.discard(live.id);
      }
      load(live);
      clearDraft(key);
      setServerIssues({});
      setSave({ kind: 'saved', at: live.updatedAt });
    });

  /** A status move of the live version as it is (Unpublish, Archive), the pending changes dropped after it. */
  const moveWithoutChanges = (status: string): Promise<boolean> =>
    onLive(async (live) => {
      setSave({ kind: 'saving' });
      const written = await patchIfMatch<Resource>(itemPath(live.id), { status }, live.updatedAt);
      await unpublished.discard(live.id);
      void queryClient.invalidateQueries({ queryKey: keys.resource(workspaceId, `${kind}s`) });
      load(written);
      clearDraft(key);
      setServerIssues({});
      setSave({ kind: 'saved', at: written.updatedAt });
    });

  /** A revision restored over the live version: pending changes made on the version it replaced go. */
  const restored = (resource: Resource) => {
    if (unpublished.latest.current) void unpublished.discard(resource.id).catch(() => undefined);
    load(resource);
  };

  const restoreOffered = () => {
    if (!offered) return;
    setFields(offered.fields);
    show(offered.fields.bodyJson);
    setOffered(null);
    edited();
  };
  const discardOffered = () => {
    clearDraft(key);
    setOffered(null);
  };

  return {
    base,
    setBase,
    load,
    restored,
    loading,
    loadError,
    fields,
    update,
    blocks,
    body,
    bodyChanged,
    editor,
    issues,
    waiting,
    save,
    run,
    saveNow,
    /** Update: the pending changes saved and written to the live version. */
    publishChanges: (status?: string) => run({ apply: true, status }),
    pending: unpublished.pending,
    hasUnpublished,
    discardChanges,
    moveWithoutChanges,
    reloadFromServer,
    overwrite,
    offered,
    theirs,
    compare,
    resolveConflict,
    dismissConflict: () => setTheirs(null),
    restoreOffered,
    discardOffered,
    current,
  };
}

export { changedFields, fieldsOf };
