import { dropCursor } from 'prosemirror-dropcursor';
import { gapCursor } from 'prosemirror-gapcursor';
import { closeHistory, history } from 'prosemirror-history';
import { NodeSelection, TextSelection, EditorState, type Transaction } from 'prosemirror-state';
import { ReplaceStep } from 'prosemirror-transform';
import { EditorView } from 'prosemirror-view';
import {
  forwardRef,
  useCallback,
  useEffect,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { createPortal } from 'react-dom';
import type { EditorBlock } from '../model';
import { LIMITS, type BlockType } from '../model';
import { adoptInto } from './adopt';
import { CardFrame, type CardActions } from './CardFrame';
import { CardStore, CardView, type CardEntry } from './card-view';
import { currentBlock, deleteBlockAt, insertBlock, isBlockStep, isSlashOnly, linkAt, setLink } from './commands';
import { currentBlockPlugin, errorsPlugin, placeholderPlugin, setErrors } from './decorations';
import { blocksFromDoc, loadBody, type Loaded } from './doc-blocks';
import { CodeView, QuoteView } from './field-views';
import { keyPlugins } from './keys';
import { BlockMenu, LinkPopover, matchingTypes } from './menus';
import { handlePaste, type PasteOutcome } from './paste-handler';
import { schema } from './schema';
import { EditorToolbar } from './EditorToolbar';
import { Gutter } from './Gutter';
import './document.css';

/** What the studio asks of the surface besides the blocks it reports. */
export interface DocumentHandle {
  /** Puts the cursor into block `index` of the saved body and shows it. */
  jump(index: number): void;
  /** The server's copy of the same body after a save (heading ids, image urls) taken in without a reload. */
  adopt(blocks: readonly EditorBlock[]): void;
  focus(): void;
  /** Reports at once what the last transactions changed (the report otherwise waits for the next paint). */
  flush(): void;
}

interface Props {
  /** The body to show; a new `generation` (a load, a restore, a merge) replaces the document and its history. */
  body: { blocks: readonly EditorBlock[]; generation: number };
  workspaceId: string;
  /** Issues of the body by JSON Pointer below /bodyJson ("3/text"). */
  errors: Record<string, string>;
  /** Every change of the document; `byWriter` is false for a load or the adoption of a save's answer. */
  onChange(blocks: EditorBlock[], byWriter: boolean): void;
  label: string;
}

function errorsByIndex(errors: Record<string, string>): Map<number, Record<string, string>> {
  const byIndex = new Map<number, Record<string, string>>();
  for (const [path, words] of Object.entries(errors)) {
    const match = /^(\d+)(?:\/(.*))?$/.exec(path);
    if (!match) continue;
    const index = Number(match[1]);
    const rest = match[2] ?? '';
    byIndex.set(index, { ...byIndex.get(index), [rest]: words });
  }
  return byIndex;
}

/** The longest a change waits to be reported when the browser draws no frame (a hidden tab). */
const SETTLE_LATEST_MS = 100;

interface Overlay {
  slash: { query: string; left: number; top: number } | null;
  link: { href: string; from: number; to: number; left: number; top: number; focus: boolean } | null;
}

export const DocumentEditor = forwardRef<DocumentHandle, Props>(function DocumentEditor(
  { body, workspaceId, errors, onChange, label },
  ref,
) {
  const mount = useRef<HTMLDivElement>(null);
  const wrapper = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const loaded = useRef<Loaded | null>(null);
  const at = useRef<readonly number[]>([]);
  const cards = useRef(new CardStore()).current;
  const entries = useSyncExternalStore(cards.subscribe, cards.getSnapshot);
  const [, setTick] = useState(0);
  const [overlay, setOverlay] = useState<Overlay>({ slash: null, link: null });
  const [slashActive, setSlashActive] = useState(0);
  const [dismissedSlash, setDismissedSlash] = useState<number | null>(null);
  const [notice, setNotice] = useState<PasteOutcome | null>(null);
  const callbacks = useRef({ onChange });
  callbacks.current = { onChange };

  const relative = useCallback((pos: number, below = true) => {
    const v = view.current!;
    const box = wrapper.current!.getBoundingClientRect();
    const coords = v.coordsAtPos(pos);
    return { left: Math.max(0, coords.left - box.left), top: (below ? coords.bottom : coords.top) - box.top + 4 };
  }, []);

  const readOverlay = useCallback(
    (state: EditorState): Overlay => {
      const here = currentBlock(state);
      let slash: Overlay['slash'] = null;
      if (here && isSlashOnly(here.node) && state.selection.empty && dismissedSlashRef.current !== here.pos)
        slash = { query: here.node.textContent.slice(1), ...relative(here.pos + 1) };
      const found = linkAt(state);
      const link = found ? { ...found, ...relative(found.from), focus: false } : null;
      return { slash, link };
    },
    [relative],
  );
  const dismissedSlashRef = useRef<number | null>(null);
  dismissedSlashRef.current = dismissedSlash;

  const report = useCallback((byWriter: boolean) => {
    const v = view.current;
    if (!v || !loaded.current) return;
    const out = blocksFromDoc(v.state.doc, loaded.current);
    at.current = out.at;
    callbacks.current.onChange(out.blocks, byWriter);
  }, []);

  // What a transaction changes beyond the document's own DOM (the studio's copy of the blocks, the toolbar, the
  // menus) is worked out after the browser has painted the key: a keystroke's paint waits for ProseMirror alone,
  // and the React renders of several quick transactions become one.
  const pending = useRef({ changed: false, byWriter: false, scheduled: false });
  const afterBlockStep = useRef(false);
  const settle = useCallback(() => {
    const later = pending.current;
    later.scheduled = false;
    if (later.changed) {
      const byWriter = later.byWriter;
      later.changed = false;
      later.byWriter = false;
      report(byWriter);
    }
    const v = view.current;
    if (v) setOverlay((shown) => keepNewLink(shown, readOverlay(v.state), v.state));
    setTick((n) => n + 1);
  }, [report, readOverlay]);
  const settleRef = useRef(settle);
  settleRef.current = settle;
  const settleAfterPaint = useCallback(() => {
    const later = pending.current;
    if (later.scheduled) return;
    later.scheduled = true;
    const run = () => {
      if (pending.current.scheduled) settleRef.current();
    };
    // A task queued from an animation frame runs after that frame's paint; the timer alone covers a hidden tab,
    // which has no frames.
    requestAnimationFrame(() => setTimeout(run, 0));
    setTimeout(run, SETTLE_LATEST_MS);
  }, []);

  /** Ctrl/Cmd+K and the toolbar's Link: the popover on the link under the cursor, or to make one of the selection. */
  const openLink = useCallback((): boolean => {
    const v = view.current;
    if (!v) return false;
    const existing = linkAt(v.state);
    const { from, to, empty } = v.state.selection;
    if (existing) setOverlay((o) => ({ ...o, link: { ...existing, ...relative(existing.from), focus: true } }));
    else if (!empty) setOverlay((o) => ({ ...o, link: { href: '', from, to, ...relative(from), focus: true } }));
    return true;
  }, [relative]);

  // What a card's own buttons and fields do to its node; one object for the editor's life, so a card redraws only
  // when its own block or errors change, not on every keystroke elsewhere.
  const cardActions = useMemo<CardActions>(() => {
    const located = (entry: CardEntry) => {
      const v = view.current;
      const pos = entry.pos();
      return v && pos !== undefined ? { v, pos } : null;
    };
    return {
      change(entry, block) {
        const at = located(entry);
        at?.v.dispatch(at.v.state.tr.setNodeAttribute(at.pos, 'block', block));
      },
      remove(entry) {
        const at = located(entry);
        if (!at) return;
        deleteBlockAt(at.pos)(at.v.state, at.v.dispatch);
        at.v.focus();
      },
      leave(entry) {
        const at = located(entry);
        if (!at) return;
        at.v.dispatch(at.v.state.tr.setSelection(NodeSelection.create(at.v.state.doc, at.pos)));
        at.v.focus();
      },
    };
  }, []);

  const create = useCallback(
    (blocks: readonly EditorBlock[]) => {
      loaded.current = loadBody(blocks);
      const plugins = [
        ...keyPlugins({
          onLink: openLink,
        }),
        history(),
        dropCursor({ class: 'drop-cursor' }),
        gapCursor(),
        errorsPlugin,
        placeholderPlugin,
        currentBlockPlugin,
      ];
      return EditorState.create({ doc: loaded.current.doc, plugins });
    },
    [openLink],
  );

  // The view is made once; a new generation gives it a new state (and a new history).
  useEffect(() => {
    const v = new EditorView(mount.current!, {
      state: create(body.blocks),
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-label': label,
        class: 'document',
        spellcheck: 'true',
      },
      nodeViews: {
        card: (node, _view, getPos, decorations) => new CardView(node, getPos, decorations, cards),
        code_block: (node, editorView, getPos) => new CodeView(node, editorView, getPos),
        quote: (node, editorView, getPos) => new QuoteView(node, editorView, getPos),
      },
      dispatchTransaction(tr: Transaction) {
        if (tr.docChanged) {
          // A whole block inserted, moved or deleted (a command's, or a selected card or divider typed over or
          // deleted) is an undo step of its own, apart from the typing before and after it.
          const blockStep =
            isBlockStep(tr) ||
            (v.state.selection instanceof NodeSelection && tr.steps.some((step) => step instanceof ReplaceStep));
          if (blockStep || afterBlockStep.current) closeHistory(tr);
          afterBlockStep.current = blockStep;
        }
        v.updateState(v.state.apply(tr));
        const later = pending.current;
        if (tr.docChanged) {
          later.changed = true;
          later.byWriter ||= !tr.getMeta('adopt');
        }
        settleAfterPaint();
      },
      handlePaste: (editorView, event) =>
        handlePaste(editorView, event, workspaceIdRef.current, (outcome) => setNotice(outcome)),
      handleDrop: (editorView, event) =>
        handlePaste(editorView, event, workspaceIdRef.current, (outcome) => setNotice(outcome)),
      handleKeyDown: (editorView, event) => slashKey.current(editorView, event) || typeIntoCard(editorView, event),
    });
    view.current = v;
    report(false);
    return () => {
      v.destroy();
      view.current = null;
    };
    // One view for the component's life: the generation effect below replaces its state.
  }, []);

  const workspaceIdRef = useRef(workspaceId);
  workspaceIdRef.current = workspaceId;

  const firstGeneration = useRef(body.generation);
  useEffect(() => {
    if (body.generation === firstGeneration.current || !view.current) return;
    // What the old document had left to report is replaced with the new one's.
    pending.current.changed = false;
    pending.current.byWriter = false;
    view.current.updateState(create(body.blocks));
    report(false);
    setOverlay({ slash: null, link: null });
  }, [body.generation]);

  // The save's issues, drawn on the blocks they name; the studio makes a new object each render, so they are
  // compared by what they say.
  const errorsKey = JSON.stringify(errors);
  useEffect(() => {
    const v = view.current;
    if (!v) return;
    v.dispatch(
      setErrors(v.state.tr, { byIndex: errorsByIndex(errors), at: at.current }).setMeta('addToHistory', false),
    );
  }, [errorsKey]);

  const slashTypes = overlay.slash ? matchingTypes(overlay.slash.query) : [];
  const slashState = useRef({ types: slashTypes, active: slashActive });
  slashState.current = { types: slashTypes, active: slashActive };

  const choose = useCallback((type: BlockType, pos?: number) => {
    const v = view.current;
    if (!v) return;
    const here = pos === undefined ? currentBlock(v.state)?.node : undefined;
    const replacing =
      here !== undefined && here.type === schema.nodes.paragraph && (here.content.size === 0 || isSlashOnly(here));
    if (v.state.doc.childCount + (replacing ? 0 : 1) > LIMITS.blocks) {
      setNotice({
        kind: 'error',
        words: [`A body holds at most ${LIMITS.blocks.toLocaleString()} blocks. Delete one to add another.`],
      });
      return;
    }
    insertBlock(type, pos)(v.state, v.dispatch);
    setSlashActive(0);
    v.focus();
    focusCard(v);
  }, []);

  const slashKey = useRef((editorView: EditorView, event: KeyboardEvent): boolean => {
    // The menu's types are read from the document itself: the overlay is drawn after the paint, and a key typed
    // sooner must choose from what was typed.
    const here = currentBlock(editorView.state);
    const dismissed = here !== null && dismissedSlashRef.current === here.pos;
    const types = here && isSlashOnly(here.node) && !dismissed ? matchingTypes(here.node.textContent.slice(1)) : [];
    const { active } = slashState.current;
    if (types.length === 0) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      setSlashActive((a) => (a + (event.key === 'ArrowDown' ? 1 : types.length - 1)) % types.length);
      return true;
    }
    if (event.key === 'Enter') {
      choose(types[Math.min(active, types.length - 1)]!);
      return true;
    }
    if (event.key === 'Escape') {
      const here = currentBlock(editorView.state);
      setDismissedSlash(here?.pos ?? null);
      setOverlay((o) => ({ ...o, slash: null }));
      return true;
    }
    return false;
  });
  useEffect(() => setSlashActive(0), [overlay.slash?.query]);

  useImperativeHandle(
    ref,
    () => ({
      jump(index: number) {
        const v = view.current;
        const pos = at.current[index];
        if (!v || pos === undefined) return;
        const node = v.state.doc.nodeAt(pos);
        const selection =
          node && (node.isTextblock || node.type === schema.nodes.list)
            ? TextSelection.near(v.state.doc.resolve(pos + 1))
            : NodeSelection.create(v.state.doc, pos);
        v.dispatch(v.state.tr.setSelection(selection).scrollIntoView());
        v.focus();
        (v.nodeDOM(pos) as HTMLElement | null)?.scrollIntoView?.({ block: 'center' });
      },
      adopt(blocks: readonly EditorBlock[]) {
        const v = view.current;
        if (!v || !loaded.current) return;
        const tr = adoptInto(v.state, loaded.current, blocks);
        if (tr) {
          loaded.current = tr.loaded;
          v.dispatch(tr.tr.setMeta('addToHistory', false).setMeta('adopt', true));
        }
      },
      focus() {
        view.current?.focus();
      },
      flush() {
        if (pending.current.scheduled) settleRef.current();
      },
    }),
    [],
  );

  const v = view.current;
  const closeLink = () => {
    setOverlay((o) => ({ ...o, link: null }));
    view.current?.focus();
  };

  return (
    <div className="document-editor" ref={wrapper}>
      {v && <EditorToolbar view={v} onInsert={(type) => choose(type)} onLink={openLink} />}
      {notice && (
        <div className={notice.kind === 'error' ? 'notice notice-warn' : 'notice'} role="status">
          {notice.words.map((words) => (
            <p key={words}>{words}</p>
          ))}
          <button type="button" className="button-quiet" onClick={() => setNotice(null)}>
            Dismiss
          </button>
        </div>
      )}
      {errors[''] && <p className="field-error">{errors['']}</p>}
      <div className="document-mount" ref={mount} />
      {v && <Gutter view={v} wrapper={wrapper} onInsert={(type, pos) => choose(type, pos)} />}
      {overlay.slash && slashTypes.length > 0 && (
        <BlockMenu
          types={slashTypes}
          active={slashActive}
          position={{ left: overlay.slash.left, top: overlay.slash.top }}
          takesFocus={false}
          onChoose={(type) => choose(type)}
          onClose={() => setOverlay((o) => ({ ...o, slash: null }))}
        />
      )}
      {overlay.link && (
        <LinkPopover
          href={overlay.link.href}
          position={{ left: overlay.link.left, top: overlay.link.top }}
          autoFocus={overlay.link.focus}
          onApply={(href) => {
            const current = view.current!;
            setLink(href, overlay.link!)(current.state, current.dispatch);
            closeLink();
          }}
          onRemove={() => {
            const current = view.current!;
            setLink('', overlay.link!)(current.state, current.dispatch);
            closeLink();
          }}
          onClose={closeLink}
        />
      )}
      {entries.map((entry) =>
        createPortal(
          <CardFrame entry={entry} workspaceId={workspaceId} actions={cardActions} />,
          entry.element,
          String(entry.id),
        ),
      )}
    </div>
  );
});

/**
 * The overlay after a transaction. A link being made (Ctrl/Cmd+K on text that is no link yet) has no link in the
 * document to be read from, so it stays open as long as its text is still what is selected.
 */
function keepNewLink(shown: Overlay, next: Overlay, state: EditorState): Overlay {
  const making = shown.link;
  if (next.link || !making || making.href !== '') return next;
  const { from, to } = state.selection;
  return from === making.from && to === making.to ? { ...next, link: making } : next;
}

/** A card just inserted: its first field takes the keyboard, so the next keystroke lands in it. */
function focusCard(v: EditorView) {
  const { selection } = v.state;
  if (!(selection instanceof NodeSelection) || selection.node.type !== schema.nodes.card) return;
  // The card's fields are drawn by React after this transaction; the next frame has them.
  requestAnimationFrame(() => firstField(v, selection.from)?.focus());
}

function firstField(v: EditorView, pos: number): HTMLElement | null {
  const dom = v.nodeDOM(pos) as HTMLElement | null;
  return (
    dom?.querySelector<HTMLElement>(
      '.card-body input, .card-body textarea, .card-body select, .card-body button, .card-body [contenteditable="true"]',
    ) ?? null
  );
}

/**
 * A character typed while a card is selected goes into the card's first field, never over the card (which the
 * document would otherwise replace with the character): focus moves during the keydown, so the browser puts the
 * character where the focus now is. Until the card has its fields the key does nothing.
 */
function typeIntoCard(v: EditorView, event: KeyboardEvent): boolean {
  const { selection } = v.state;
  if (!(selection instanceof NodeSelection) || selection.node.type !== schema.nodes.card) return false;
  if (event.key.length !== 1 || event.ctrlKey || event.metaKey || event.altKey) return false;
  const field = firstField(v, selection.from);
  if (field) {
    field.focus();
    return false;
  }
  event.preventDefault();
  return true;
}
