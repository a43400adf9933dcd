import type { Node as PmNode } from 'prosemirror-model';
import type { EditorView, NodeView, ViewMutationRecord } from 'prosemirror-view';

/*
 * A code block and a quote are text the writer types into, with one plain field beside the text: the code's
 * language, the quote's attribution. The field is a real input outside the node's content; what is typed into it
 * becomes the node's attribute in one transaction (so it is undone like any other edit).
 */

let fieldIds = 0;

abstract class FieldView implements NodeView {
  dom: HTMLElement;
  contentDOM: HTMLElement;
  protected input: HTMLInputElement;

  constructor(
    protected node: PmNode,
    protected view: EditorView,
    protected getPos: () => number | undefined,
    private attribute: string,
    label: string,
    shell: { dom: HTMLElement; contentDOM: HTMLElement; fieldAt: 'before' | 'after' },
  ) {
    this.dom = shell.dom;
    this.contentDOM = shell.contentDOM;
    const field = document.createElement('label');
    field.className = 'node-field';
    field.contentEditable = 'false';
    const id = `node-field-${(fieldIds += 1)}`;
    const caption = document.createElement('span');
    caption.textContent = label;
    this.input = document.createElement('input');
    this.input.id = id;
    this.input.value = String(node.attrs[attribute] ?? '');
    this.input.spellcheck = false;
    field.htmlFor = id;
    field.append(caption, this.input);
    this.input.addEventListener('input', () => this.write(this.input.value));
    this.input.addEventListener('keydown', (event) => {
      // Enter and Escape go back into the text, where the writer was.
      if (event.key === 'Enter' || event.key === 'Escape') {
        event.preventDefault();
        this.view.focus();
      }
    });
    if (shell.fieldAt === 'before') this.dom.prepend(field);
    else this.dom.append(field);
  }

  private write(value: string) {
    const pos = this.getPos();
    if (pos === undefined) return;
    this.view.dispatch(this.view.state.tr.setNodeAttribute(pos, this.attribute, this.stored(value)));
  }

  protected stored(value: string): unknown {
    return value;
  }

  update(node: PmNode): boolean {
    if (node.type !== this.node.type) return false;
    this.node = node;
    const value = String(node.attrs[this.attribute] ?? '');
    // An undo changes the attribute under the field; a keystroke in the field already shows its value.
    if (this.input.value !== value) this.input.value = value;
    return true;
  }

  stopEvent(event: Event): boolean {
    return event.target === this.input;
  }

  ignoreMutation(mutation: ViewMutationRecord): boolean {
    return mutation.type !== 'selection' && !this.contentDOM.contains(mutation.target);
  }
}

export class CodeView extends FieldView {
  constructor(node: PmNode, view: EditorView, getPos: () => number | undefined) {
    const dom = document.createElement('div');
    dom.className = 'code-card';
    const pre = document.createElement('pre');
    const code = document.createElement('code');
    pre.append(code);
    dom.append(pre);
    super(node, view, getPos, 'language', 'Language', { dom, contentDOM: code, fieldAt: 'before' });
    this.input.placeholder = 'e.g. ts';
    this.input.maxLength = 50;
  }
}

export class QuoteView extends FieldView {
  constructor(node: PmNode, view: EditorView, getPos: () => number | undefined) {
    const dom = document.createElement('figure');
    dom.className = 'quote-card';
    const quote = document.createElement('blockquote');
    if (node.attrs.source) quote.className = 'md-source';
    dom.append(quote);
    super(node, view, getPos, 'attribution', 'Attribution (optional)', { dom, contentDOM: quote, fieldAt: 'after' });
  }

  protected override stored(value: string): unknown {
    return value === '' ? null : value;
  }

  override update(node: PmNode): boolean {
    if (node.type !== this.node.type || node.attrs.source !== this.node.attrs.source) return false;
    return super.update(node);
  }
}
