import { Fragment, Slice, type Node as PmNode } from 'prosemirror-model';
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
    // An empty image card for each file where it was pasted, filled as its upload settles.
    const pending = files.map((file) => ({ token: uploadToken(), file }));
    const nodes = pending.map(({ token }) => emptyImage(token));
    view.dispatch(view.state.tr.replaceSelection(new Slice(Fragment.from(nodes), 0, 0)).scrollIntoView());
    void uploadInto(view, workspaceId, pending, tell, []);
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
  const pending = result.images.map((image) => ({ token: uploadToken(), file: image.file, index: image.index }));
  const tokens = new Map(pending.map((entry) => [entry.index, entry.token]));
  const nodes = result.blocks.map((block, index) => {
    const node = nodeFromBlock(block, null);
    const token = tokens.get(index);
    return token === undefined ? node : node.type.create({ ...node.attrs, upload: token });
  });
  const only = nodes.length === 1 ? nodes[0]! : null;
  // A paragraph pasted into text joins that text; anything more comes in as blocks.
  const slice =
    only && only.type === schema.nodes.paragraph && view.state.selection.$from.parent.isTextblock
      ? new Slice(only.content, 0, 0)
      : new Slice(Fragment.from(nodes), 0, 0);
  view.dispatch(view.state.tr.replaceSelection(slice).scrollIntoView().setMeta('paste', true));
  tell(words.length > 0 ? { kind: 'info', words } : null);
  if (result.images.length > 0) await uploadInto(view, workspaceId, pending, tell, words);
}

/**
 * Image cards of a paste, in the document already and empty: each upload fills its own card, found by the node
 * inserted for it (the writer may have moved it, or typed its alt text, meanwhile). A file the library refuses
 * takes its card out again and is named in the notice; the rest of the paste stays.
 */
let uploads = 0;
const uploadToken = () => `upload-${(uploads += 1)}`;
const emptyImage = (token: string) =>
  schema.nodes.card.create({ block: { type: 'image', mediaId: '' }, upload: token });

async function uploadInto(
  view: EditorView,
  workspaceId: string,
  pending: Array<{ token: string; file: File }>,
  tell: (outcome: PasteOutcome | null) => void,
  words: string[],
) {
  const problems: string[] = [];
  tell({
    kind: 'info',
    words: [...words, `Uploading ${pending.length === 1 ? 'the image' : `${pending.length} images`}…`],
  });
  await uploadPastedImages(
    workspaceId,
    pending.map((entry) => entry.file),
    (result, index) => {
      const { token, file } = pending[index]!;
      let at: number | null = null;
      let card: PmNode | null = null;
      view.state.doc.forEach((child, offset) => {
        if (child.attrs.upload === token) [at, card] = [offset, child];
      });
      // Outside the history: undoing the paste takes the card out, whatever its upload did meanwhile.
      const tr = view.state.tr.setMeta('addToHistory', false);
      if ('error' in result) {
        problems.push(`${file.name || 'An image'} was not added: ${result.error}`);
        if (at !== null) view.dispatch(tr.delete(at, at + card!.nodeSize));
        return;
      }
      if (at === null) return;
      const block = card!.attrs.block as { alt?: string };
      const filled = {
        ...block,
        mediaId: result.mediaId,
        url: result.url,
        ...(!block.alt && result.alt ? { alt: result.alt } : {}),
      };
      view.dispatch(tr.setNodeAttribute(at, 'block', filled).setNodeAttribute(at, 'upload', null));
    },
  );
  const all = [...words, ...problems];
  tell(all.length > 0 ? { kind: problems.length > 0 ? 'error' : 'info', words: all } : null);
}
