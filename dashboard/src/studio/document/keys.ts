import {
  baseKeymap,
  chainCommands,
  exitCode,
  joinBackward,
  newlineInCode,
  selectNodeBackward,
  deleteSelection,
} from 'prosemirror-commands';
import { redo, undo } from 'prosemirror-history';
import { InputRule, inputRules, textblockTypeInputRule } from 'prosemirror-inputrules';
import { keymap } from 'prosemirror-keymap';
import type { MarkType } from 'prosemirror-model';
import { TextSelection, type Command, type Plugin } from 'prosemirror-state';
import { enterCard, formatMark, leaveList, moveBlock, unstyleAtStart } from './commands';
import { schema } from './schema';

const hardBreak: Command = (state, dispatch) => {
  if (state.selection.$from.parent.type.spec.code) return false;
  dispatch?.(state.tr.replaceSelectionWith(schema.nodes.hard_break.create()).scrollIntoView());
  return true;
};

/**
 * The keyboard of the surface; `onLink` opens the link popover (Ctrl/Cmd+K) on the selection. Ctrl/Cmd+S is the
 * studio's own (useSaveShortcut.ts), so it saves from a card's fields too.
 */
export function keyPlugins(handlers: { onLink(): boolean }): Plugin[] {
  return [
    inputRules({ rules: markdownRules() }),
    keymap({
      'Mod-z': undo,
      'Shift-Mod-z': redo,
      'Mod-y': redo,
      'Mod-b': formatMark(schema.marks.strong),
      'Mod-i': formatMark(schema.marks.em),
      'Mod-e': formatMark(schema.marks.code),
      'Mod-Shift-x': formatMark(schema.marks.strike),
      'Mod-k': () => handlers.onLink(),
      'Alt-ArrowUp': moveBlock(-1),
      'Alt-ArrowDown': moveBlock(1),
      'Shift-Enter': chainCommands(newlineInCode, hardBreak),
      'Mod-Enter': exitCode,
      Enter: chainCommands(leaveList('enter'), enterCard),
      Backspace: chainCommands(
        deleteSelection,
        unstyleAtStart,
        leaveList('backspace'),
        joinBackward,
        selectNodeBackward,
      ),
    }),
    keymap(baseKeymap),
  ];
}

/** A rule that replaces the whole text block typed so far with a node of another type. */
function blockRule(pattern: RegExp, make: (match: RegExpMatchArray) => ReturnType<typeof schema.node>): InputRule {
  return new InputRule(pattern, (state, match, start, end) => {
    const $start = state.doc.resolve(start);
    if ($start.depth !== 1 || $start.parent.type !== schema.nodes.paragraph || $start.parent.attrs.source) return null;
    const from = $start.before(1);
    const paragraph = $start.parent;
    const rest = paragraph.content.cut(end - $start.start());
    const node = make(match);
    const tr = state.tr.replaceWith(from, from + paragraph.nodeSize, node);
    if (node.type === schema.nodes.list) {
      tr.replaceWith(from + 2, from + 2, rest);
      tr.setSelection(TextSelection.create(tr.doc, from + 2));
    } else if (node.type === schema.nodes.divider) {
      tr.insert(from + node.nodeSize, schema.nodes.paragraph.create(null, rest));
      tr.setSelection(TextSelection.create(tr.doc, from + node.nodeSize + 1));
    } else {
      tr.replaceWith(from + 1, from + 1, rest);
      tr.setSelection(TextSelection.create(tr.doc, from + 1));
    }
    return tr;
  });
}

/** Inline Markdown typed as it would be written, taken as the mark: `**b**`, `*i*`, `` `c` ``, `~~s~~`. */
function markRule(pattern: RegExp, type: MarkType): InputRule {
  return new InputRule(pattern, (state, match, start, end) => {
    const $start = state.doc.resolve(start);
    if ($start.parent.attrs.source || $start.parent.type.spec.code) return null;
    const [whole, lead, text] = match as unknown as [string, string, string];
    const textStart = start + lead.length;
    const tr = state.tr.delete(textStart, end).insertText(text, textStart);
    tr.addMark(textStart, textStart + text.length, type.create());
    tr.removeStoredMark(type);
    return whole ? tr : null;
  });
}

function markdownRules(): InputRule[] {
  return [
    blockRule(/^#{1,2} $/, () => schema.nodes.heading.create({ level: 2 })),
    blockRule(/^### $/, () => schema.nodes.heading.create({ level: 3 })),
    blockRule(/^#### $/, () => schema.nodes.heading.create({ level: 4 })),
    blockRule(/^[-*] $/, () => schema.nodes.list.create({ style: 'bullet' }, schema.nodes.list_item.create())),
    blockRule(/^1[.)] $/, () => schema.nodes.list.create({ style: 'ordered' }, schema.nodes.list_item.create())),
    blockRule(/^> $/, () => schema.nodes.quote.create()),
    blockRule(/^---$/, () => schema.nodes.divider.create()),
    textblockTypeInputRule(/^```([\w+-]*)\s$/, schema.nodes.code_block, (match) => ({ language: match[1] ?? '' })),
    markRule(/(^|[^*])\*\*([^*\s](?:[^*]*[^*\s])?)\*\*$/, schema.marks.strong),
    markRule(/(^|[^*\w])\*([^*\s](?:[^*]*[^*\s])?)\*$/, schema.marks.em),
    markRule(/(^|[^`])`([^`]+)`$/, schema.marks.code),
    markRule(/(^|[^~])~~([^~\s](?:[^~]*[^~\s])?)~~$/, schema.marks.strike),
  ];
}
