import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, ApiError, describeError, patchIfMatch, request, unavailableFor, ws } from '../api';
import { keys } from '../queries';
import type { Page, Post } from '../types';
import { inWords } from '../validation-words';
import { clearDraft, draftKey, readDraft, writeDraft, type LocalDraft } from './drafts';
import { changedFields, fieldsOf, type EditableFields } from './post-fields';
import type { DocumentHandle } from './document/DocumentEditor';
import { localIssues, slugify, unfinished, type EditorBlock } from './model';

export type Kind = 'post' | 'page';
export interface SaveOptions {
  status?: string;
  /** Overwrite whatever the server holds at this version (after a 409): every field is sent. */
  overwrite?: string;
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
  | { kind: 'conflict'; version: string };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The server's 400 issues by JSON Pointer, in a writer's words (validation-words.ts). */
function issuesOf(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || !Array.isArray(error.details?.issues)) return {};
  const out: Record<string, string> = {};
  for (const issue of error.details.issues as Array<{ path?: string; message?: string }>) {
    const path = issue.path ?? '';
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
  // After a save refused as stale: the server's copy, to compare and merge with (ConflictPanel).
  const [theirs, setTheirs] = useState<Resource | null>(null);
  // Counts edits: a save that finishes while this moved has not saved everything.
  const edits = useRef(0);
  const [editCount, setEditCount] = useState(0);
  const inFlight = useRef(false);
  const key = draftKey(workspaceId, kind, base?.id ?? id);
  const baseId = useRef<string | null>(null);
  baseId.current = base?.id ?? null;

  const load = useCallback(
    (resource: Resource | null) => {
      setBase(resource);
      const next = fieldsOf(kind, resource);
      setFields(next);
      show(next.bodyJson);
    },
    [kind, show],
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
    api.get<Resource>(ws(workspaceId, `${collection}/${encodeURIComponent(id)}`)).then(
      (resource) => {
        if (!live) return;
        load(resource);
        setLoading(false);
        // Offered back only when it holds something the server copy does not.
        if (stored && !same({ ...stored.fields, slugEdited: true }, { ...fieldsOf(kind, resource), slugEdited: true }))
          setOffered(stored);
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
    const body = changedFields(kind, now, !base ? 'create' : options.overwrite ? 'all' : fieldsOf(kind, base));
    if (options.status && options.status !== base?.status) body.status = options.status;
    const tagsBefore = base ? fieldsOf(kind, base).tagIds : [];
    const attach = kind === 'post' ? now.tagIds.filter((t) => !tagsBefore.includes(t)) : [];
    const detach = kind === 'post' ? tagsBefore.filter((t) => !now.tagIds.includes(t)) : [];
    if (base && Object.keys(body).length === 0 && attach.length === 0 && detach.length === 0) {
      // Nothing differs from the server's copy: no request, so no revision.
      setSave({ kind: 'saved', at: base.updatedAt });
      if (edits.current === startedAt) clearDraft(key);
      return true;
    }
    inFlight.current = true;
    setSave({ kind: 'saving' });
    try {
      let answer: Resource;
      if (!base) answer = await api.post<Resource>(ws(workspaceId, collection), body);
      else if (Object.keys(body).length > 0)
        answer = await patchIfMatch<Resource>(
          ws(workspaceId, `${collection}/${base.id}`),
          body,
          options.overwrite ?? base.updatedAt,
        );
      else answer = base;
      const tagsPath = ws(workspaceId, `/posts/${answer.id}/tags`);
      if (attach.length > 0) answer = await api.post<Resource>(tagsPath, { tagIds: attach });
      if (detach.length > 0) answer = await request<Resource>('DELETE', tagsPath, { tagIds: detach });
      setServerIssues({});
      // The lists, the post view and the tag counts read the saved version next time they are shown.
      void queryClient.invalidateQueries({ queryKey: keys.resource(workspaceId, `${kind}s`) });
      if (attach.length > 0 || detach.length > 0)
        void queryClient.invalidateQueries({ queryKey: keys.resource(workspaceId, 'tags') });
      setBase(answer);
      if (edits.current === startedAt) {
        // Nothing typed meanwhile: take what the server derived (heading ids, image urls, a freed slug).
        const fresh = fieldsOf(kind, answer);
        setFields(fresh);
        editor.current?.adopt(fresh.bodyJson);
        setBlocks(fresh.bodyJson);
        clearDraft(key);
        clearDraft(draftKey(workspaceId, kind, null));
        setSave({ kind: 'saved', at: answer.updatedAt });
      } else setSave({ kind: 'unsaved' });
      if (!base) onCreated(answer);
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.status === 409 && error.details?.reason === 'stale') {
        setSave({ kind: 'conflict', version: String(error.details.version) });
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
    void run(next);
  }, [queueTick]);

  // Autosave after a pause: only what exists (or has a title), never over a conflict or a value over a limit.
  useEffect(() => {
    if (editCount === 0 || save.kind !== 'unsaved' || blocking || !fields.title.trim()) return;
    const timer = window.setTimeout(() => void run(), AUTOSAVE_MS);
    return () => window.clearTimeout(timer);
    // `run` is a fresh closure each render; the edit count says when there is something new to save.
  }, [editCount, save.kind, blocking]);

  /** Fetches the server's copy to show beside the writer's (the conflict panel opens on it). */
  const compare = async () => {
    if (!base) return;
    try {
      setTheirs(await api.get<Resource>(ws(workspaceId, `${collection}/${base.id}`)));
    } catch {
      // The notice's Reload and Overwrite still work; Compare tries again.
    }
  };

  /**
   * The writer's choice after a conflict: their copy becomes the base (so only what differs from it is sent, with
   * its version in If-Match) and the merged fields the editor's; the save runs at once.
   */
  const resolveConflict = (merged: EditableFields, version: string) => {
    if (!theirs || theirs.updatedAt !== version) return;
    setBase(theirs);
    setFields(merged);
    show(merged.bodyJson);
    setTheirs(null);
    setServerIssues({});
    edits.current += 1;
    setEditCount(edits.current);
    setSave({ kind: 'unsaved' });
    queued.current = { ...queued.current };
    setQueueTick((n) => n + 1);
  };

  const reloadFromServer = async () => {
    if (!base) return;
    const fresh = await api.get<Resource>(ws(workspaceId, `${collection}/${base.id}`));
    load(fresh);
    clearDraft(key);
    setServerIssues({});
    setSave({ kind: 'saved', at: fresh.updatedAt });
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
    reloadFromServer,
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
