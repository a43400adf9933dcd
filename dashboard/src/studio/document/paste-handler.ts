import { Fragment, Slice, type Node as PmNode } from 'prosemirror-model';
import { NodeSelection } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import { LIMITS } from '../model';
import { nodeFromBlock } from './doc-blocks';
import { uploadPastedImages } from './paste-images';
import { schema } from './schema';

/** What the writer is told after a paste: what was converted, dropped or refused. */
export interface PasteOutcome {
  kind: 'info' | 'error';
  words: string[];
}

const IMAGE = /^image\//;

/**
 * A paste or a drop: the editor's own copies go back through ProseMirror's clipboard (cards and all); HTML and
 * Markdown from elsewhere through the shared converter; image files to the media library. Returns whether it
 * was handled here.
 */
export function handlePaste(
  view: EditorView,
  event: ClipboardEvent | DragEvent,
  workspaceId: string,
  tell: (outcome: PasteOutcome | null) => void,
): boolean {
  const data = 'clipboardData' in event ? event.clipboardData : (event as DragEvent).dataTransfer;
  if (!data) return false;
  // A drag inside the editor moves its own slice (view.dragging); ProseMirror does that.
  if (event.type === 'drop' && view.dragging) return false;
  const html = data.getData('text/html');
  if (html && html.includes('data-pm-slice')) return false;
  const files = [...data.files].filter((file) => IMAGE.test(file.type));
  if (files.length > 0) {
    event.preventDefault();
    void insertImages(view, workspaceId, files, tell);
    return true;
  }
  const text = data.getData('text/plain');
  if (!html && !text) return false;
  // One line of plain text is typing: ProseMirror inserts it where the cursor is.
  if (!html && !/\n/.test(text.trim()) && !/^(#{1,6}\s|[-*+]\s|\d+[.)]\s|>\s?|```)/.test(text)) return false;
  if (view.state.selection.$from.parent.type.spec.code) return false;

  event.preventDefault();
  void convertAndInsert(view, workspaceId, html ? { html, text } : { text }, tell);
  return true;
}

/** The converter is fetched on the first paste: most sessions never paste, and it is the surface's largest part. */
async function convertAndInsert(
  view: EditorView,
  workspaceId: string,
  data: { html?: string; text?: string },
  tell: (outcome: PasteOutcome | null) => void,
) {
  const { pastedBlocks } = await import('./paste');
  const room = LIMITS.blocks - view.state.doc.childCount + 1;
  const result = pastedBlocks(data, room);
  const words = [...result.notes];
  if (result.dropped > 0) {
    tell({
      kind: 'error',
      words: [
        `Nothing was pasted: it holds ${(result.blocks.length + result.dropped).toLocaleString()} blocks and the body has room for ${Math.max(0, room).toLocaleString()} more (a body holds at most ${LIMITS.blocks.toLocaleString()}). Paste it in parts, or delete blocks first.`,
      ],
    });
    return;
  }
  if (result.blocks.length === 0) {
    if (words.length > 0) tell({ kind: 'info', words });
    return;
  }
  const nodes = result.blocks.map((block) => nodeFromBlock(block, null));
  const only = nodes.length === 1 ? nodes[0]! : null;
  // A paragraph pasted into text joins that text; anything more comes in as blocks.
  const slice =
    only && only.type === schema.nodes.paragraph && view.state.selection.$from.parent.isTextblock
      ? new Slice(only.content, 0, 0)
      : new Slice(Fragment.from(nodes), 0, 0);
  view.dispatch(view.state.tr.replaceSelection(slice).scrollIntoView().setMeta('paste', true));
  tell(words.length > 0 ? { kind: 'info', words } : null);
  if (result.images.length > 0)
    await fillPastedImages(
      view,
      workspaceId,
      result.images.map((image) => ({ node: nodes[image.index]!, file: image.file })),
      tell,
      words,
    );
}

/**
 * Images the paste held as data: their blocks are in the document already (empty), and each upload fills its own
 * block, found by the node inserted for it (the writer may have moved or deleted it meanwhile).
 */
async function fillPastedImages(
  view: EditorView,
  workspaceId: string,
  pending: Array<{ node: PmNode; file: File }>,
  tell: (outcome: PasteOutcome | null) => void,
  words: string[],
) {
  const problems: string[] = [];
  await uploadPastedImages(
    workspaceId,
    pending.map((entry) => entry.file),
    (result, index) => {
      if ('error' in result) {
        problems.push(`A pasted image was not uploaded: ${result.error} Its block is left empty to choose another.`);
        return;
      }
      let at: number | null = null;
      view.state.doc.forEach((child, offset) => {
        if (child === pending[index]!.node) at = offset;
      });
      if (at === null) return;
      const block = {
        type: 'image' as const,
        mediaId: result.mediaId,
        url: result.url,
        ...(result.alt ? { alt: result.alt } : {}),
      };
      view.dispatch(view.state.tr.setNodeAttribute(at, 'block', block).setMeta('addToHistory', false));
    },
  );
  const all = [...words, ...problems];
  tell(all.length > 0 ? { kind: problems.length > 0 ? 'error' : 'info', words: all } : null);
}

async function insertImages(
  view: EditorView,
  workspaceId: string,
  files: File[],
  tell: (outcome: PasteOutcome | null) => void,
) {
  const problems: string[] = [];
  tell({ kind: 'info', words: [`Uploading ${files.length === 1 ? 'the image' : `${files.length} images`}…`] });
  const results = await uploadPastedImages(workspaceId, files);
  results.forEach((result, i) => {
    if ('error' in result) {
      problems.push(`${files[i]!.name || 'An image'} was not added: ${result.error}`);
      return;
    }
    const node = nodeFromBlock({ type: 'image', mediaId: result.mediaId, alt: result.alt, url: result.url }, null);
    const { state } = view;
    const tr = state.tr.replaceSelectionWith(node);
    const pos = tr.selection.from - node.nodeSize;
    if (pos >= 0 && tr.doc.nodeAt(pos)?.type === schema.nodes.card) tr.setSelection(NodeSelection.create(tr.doc, pos));
    view.dispatch(tr.scrollIntoView());
  });
  tell(problems.length > 0 ? { kind: 'error', words: problems } : null);
}
