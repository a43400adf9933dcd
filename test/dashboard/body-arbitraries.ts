import fc from 'fast-check';
import type { EditorBlock } from '../../dashboard/src/studio/model.js';

// A small vocabulary, so that generated bodies repeat blocks and words as real ones do.
const word = fc.constantFrom('the', 'cat', 'sat', 'on', 'a', 'mat', 'quietly', '**bold**', '[link](https://x.y)');
const text = fc.array(word, { minLength: 0, maxLength: 6 }).map((words) => words.join(' '));

export const arbitraryBlock: fc.Arbitrary<EditorBlock> = fc.oneof(
  { weight: 4, arbitrary: text.map((t): EditorBlock => ({ type: 'paragraph', text: t })) },
  fc
    .record({ text, level: fc.constantFrom(2 as const, 3 as const), id: fc.constantFrom('h', 'h-2') })
    .map((h): EditorBlock => ({ type: 'heading', ...h })),
  fc
    .record({ items: fc.array(text, { minLength: 1, maxLength: 3 }), style: fc.constantFrom('bullet', 'ordered') })
    .map((l): EditorBlock => ({ type: 'list', ...(l as { items: string[]; style: 'bullet' | 'ordered' }) })),
  fc.constant<EditorBlock>({ type: 'divider' }),
  fc
    .record({ mediaId: fc.constantFrom('m1', 'm2'), alt: text, url: fc.constantFrom('/a.jpg', '/b.jpg') })
    .map((i): EditorBlock => ({ type: 'image', ...i })),
  fc
    .record({ title: text, body: text, variant: fc.constantFrom('info', 'warning') })
    .map((c): EditorBlock => ({ type: 'callout', ...(c as { title: string; body: string; variant: 'info' }) })),
);

export const arbitraryBody = fc.array(arbitraryBlock, { maxLength: 8 });

type Edit =
  | { op: 'insert'; at: number; block: EditorBlock }
  | { op: 'delete'; at: number }
  | { op: 'replace'; at: number; block: EditorBlock }
  | { op: 'move'; from: number; to: number };

const arbitraryEdit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), block: arbitraryBlock }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('replace' as const), at: fc.nat(), block: arbitraryBlock }),
  fc.record({ op: fc.constant('move' as const), from: fc.nat(), to: fc.nat() }),
);

function apply(body: readonly EditorBlock[], edits: readonly Edit[]): EditorBlock[] {
  const next = body.slice();
  for (const edit of edits) {
    if (edit.op === 'insert') next.splice(edit.at % (next.length + 1), 0, edit.block);
    else if (next.length === 0) continue;
    else if (edit.op === 'delete') next.splice(edit.at % next.length, 1);
    else if (edit.op === 'replace') next[edit.at % next.length] = edit.block;
    else {
      const [moved] = next.splice(edit.from % next.length, 1);
      next.splice(edit.to % (next.length + 1), 0, moved!);
    }
  }
  return next;
}

/** A body as a writer might leave it after a few edits of `body`: blocks added, deleted, rewritten, moved. */
export const edited = (body: readonly EditorBlock[]) =>
  fc.array(arbitraryEdit, { maxLength: 4 }).map((edits) => apply(body, edits));
