/*
 * What `npm run bench:editor` runs inside the page, installed before the page's own scripts (addInitScript, so it
 * is serialized on its own: nothing here may refer to anything outside `installProbe`). The benchmark program
 * has no DOM types; the few it touches are declared below, just enough.
 *
 * The writing surface is `.ProseMirror[contenteditable=true]` (or another root given with --root), whose element
 * children are the blocks; without one, the block editor's textareas (`section[aria-label^="Block N: "]`).
 */

interface El {
  tagName: string;
  children: ArrayLike<El>;
  classList: { contains(name: string): boolean };
  textContent: string | null;
  value?: string;
  focus(): void;
  scrollIntoView(options: object): void;
  setSelectionRange?(start: number, end: number): void;
  querySelectorAll(selector: string): ArrayLike<El>;
}

interface PageGlobals {
  document: {
    querySelector(selector: string): El | null;
    querySelectorAll(selector: string): ArrayLike<El>;
    createRange(): { selectNodeContents(node: El): void; collapse(toStart: boolean): void };
    getSelection(): { removeAllRanges(): void; addRange(range: unknown): void } | null;
  };
  addEventListener(
    type: string,
    listener: (event: { timeStamp: number; repeat?: boolean }) => void,
    capture: boolean,
  ): void;
  requestAnimationFrame(callback: () => void): void;
  setTimeout(callback: () => void, ms: number): void;
  performance: { now(): number };
  PerformanceObserver?: new (callback: (list: { getEntries(): EventEntry[] }) => void) => {
    observe(options: object): void;
  };
  __editorBench?: Probe;
}

interface EventEntry {
  name: string;
  startTime: number;
  duration: number;
}

/** One keystroke: keydown's timeStamp, and when the frame after its last input event had been painted. */
export interface Keystroke {
  start: number;
  end: number | null;
  token: number;
}

export type SurfaceKind = 'contenteditable' | 'textarea';

export interface Probe {
  keys: Keystroke[];
  /** Event Timing entries of 16 ms or more (the least the API reports), keydown to the next paint, 8 ms steps. */
  slowEvents: EventEntry[];
  /** When `ready` first found the surface and block `index`, in ms since navigation start. */
  readyAt: number | null;
  ready(index: number): SurfaceKind | null;
  /** Puts the caret at the end of block `index` and focuses it; answers its text. */
  place(index: number): string;
  /** The text of block `index` now, no-break spaces as spaces (a contenteditable shows a trailing space as one). */
  text(index: number): string;
  reset(): void;
}

export function installProbe(rootSelector: string): void {
  const g = globalThis as unknown as PageGlobals;
  const keys: Keystroke[] = [];
  const slowEvents: EventEntry[] = [];
  let current: Keystroke | null = null;

  // The end is the task queued from the animation frame after the keystroke's LAST event: it runs once that
  // frame's style, layout and paint are done. Keydown alone is not enough: a key's character comes in its own
  // event, which may land after a frame has already gone by.
  const frameAfter = (key: Keystroke) => {
    const token = ++key.token;
    g.requestAnimationFrame(() =>
      g.setTimeout(() => {
        if (key.token === token) key.end = g.performance.now();
      }, 0),
    );
  };
  g.addEventListener(
    'keydown',
    (event) => {
      if (event.repeat) return;
      current = { start: event.timeStamp, end: null, token: 0 };
      keys.push(current);
      frameAfter(current);
    },
    true,
  );
  for (const type of ['keypress', 'beforeinput', 'input'])
    g.addEventListener(
      type,
      () => {
        if (current) frameAfter(current);
      },
      true,
    );
  if (g.PerformanceObserver) {
    new g.PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        if (entry.name !== 'keyup')
          slowEvents.push({ name: entry.name, startTime: entry.startTime, duration: entry.duration });
    }).observe({ type: 'event', durationThreshold: 16, buffered: true });
  }

  const surface = (): { kind: SurfaceKind; root: El; block(index: number): El | null } | null => {
    // The root with the most blocks: a page may hold other, smaller editable roots (a caption, a title).
    const roots = Array.from(g.document.querySelectorAll(rootSelector));
    const root = roots.sort((a, b) => b.children.length - a.children.length)[0];
    if (root) {
      return {
        kind: 'contenteditable',
        root,
        block: (index) =>
          Array.from(root.children).filter(
            (child) =>
              !child.classList.contains('ProseMirror-widget') && !child.classList.contains('ProseMirror-gapcursor'),
          )[index] ?? null,
      };
    }
    const list = g.document.querySelector('.block-editor');
    if (list) {
      return {
        kind: 'textarea',
        root: list,
        block: (index) => g.document.querySelector(`section[aria-label^="Block ${index + 1}: "] textarea`),
      };
    }
    return null;
  };
  const found = (index: number) => {
    const s = surface();
    const block = s?.block(index);
    if (!s || !block) throw new Error(`block ${index + 1} of the writing surface is not on the page`);
    return { kind: s.kind, root: s.root, block };
  };
  const textOf = (kind: SurfaceKind, block: El) =>
    (kind === 'textarea' ? (block.value ?? '') : (block.textContent ?? '')).replace(/\u00a0/g, ' ');

  const probe: Probe = {
    keys,
    slowEvents,
    readyAt: null,
    ready(index) {
      const s = surface();
      if (!s || !s.block(index)) return null;
      probe.readyAt ??= g.performance.now();
      return s.kind;
    },
    place(index) {
      const { kind, root, block } = found(index);
      block.scrollIntoView({ block: 'center' });
      if (kind === 'textarea') {
        block.focus();
        const end = (block.value ?? '').length;
        block.setSelectionRange?.(end, end);
      } else {
        root.focus();
        const range = g.document.createRange();
        range.selectNodeContents(block);
        range.collapse(false);
        const selection = g.document.getSelection();
        selection?.removeAllRanges();
        selection?.addRange(range);
      }
      return textOf(kind, block);
    },
    text(index) {
      const { kind, block } = found(index);
      return textOf(kind, block);
    },
    reset() {
      keys.length = 0;
      slowEvents.length = 0;
      current = null;
    },
  };
  g.__editorBench = probe;
}
