import type { ConversionNote } from '@quire/blocks';
import type { Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { applyEdits, type Edit } from './edits.js';
import { expandTemplateTags } from './expand.js';
import { imageEdits } from './image-paths.js';
import type { MediaFolder } from './media.js';
import type { Range } from './template-tags.js';
import { excerpt } from './text.js';
import { walk } from './tree.js';

/*
 * A file's Markdown made ready for markdownToBlocks: its title heading taken out (when it is the title), MDX's
 * JavaScript taken out, template tags expanded, and relative image sources made root-relative. Each step edits
 * the text at offsets its Markdown tree gives, so nothing inside code (fenced, indented or inline) is touched.
 */

export interface PreparedBody {
  markdown: string;
  /** The text of the first `# heading`, when the body gave the title. */
  title?: string;
  notes: ConversionNote[];
}

export interface PrepareOptions {
  /** The title comes from the first `# heading`, which then leaves the body. */
  titleFromHeading: boolean;
  mdx: boolean;
  folder: MediaFolder;
  /** The Markdown file's folder, absolute: relative image paths start there. */
  fileFolder: string;
}

function rangeOf(node: Nodes): Range | null {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  return start === undefined || end === undefined ? null : { start, end };
}

/** Plain text of a heading: its text and code, the alt of its images. */
function plain(node: Nodes): string {
  let out = '';
  for (const inner of walk({ type: 'root', children: [node as Root['children'][number]] }))
    if (inner.type === 'text' || inner.type === 'inlineCode') out += inner.value;
    else if (inner.type === 'image') out += inner.alt ?? '';
  return out.replace(/\s+/g, ' ').trim();
}

/** JSX of an MDX file: a component (capitalised), a fragment, or a closing tag of either. */
const JSX = /^<\/?(?:[A-Z][\w.]*|>)/;
/** MDX's ECMAScript lines: `import …` and `export …` at the start of a paragraph. */
const ESM = /^(import|export)\s/;

/** The name a JSX tag gives, for its note: the component's, or `fragment`. */
const jsxName = (source: string) => /^<\/?([\w.]*)/.exec(source.trimStart())?.[1] || 'fragment';

/**
 * The MDX constructs Markdown cannot hold, as removals with a note each: ECMAScript and expression paragraphs,
 * and JSX, which Markdown reads as raw HTML or, when its attributes are expressions, as a paragraph.
 */
function mdxRemovals(tree: Root, text: string, notes: ConversionNote[]): Range[] {
  const removed: Range[] = [];
  const remove = (range: Range, element: string, source: string) => {
    notes.push({ kind: 'unsupported', element, excerpt: excerpt(source) });
    removed.push(range);
  };
  for (const node of tree.children) {
    const range = rangeOf(node);
    if (range === null || node.type !== 'paragraph') continue;
    const source = text.slice(range.start, range.end);
    const esm = ESM.exec(source);
    if (esm !== null) remove(range, esm[1]!, source);
    else if (JSX.test(source)) remove(range, jsxName(source), source);
    else if (source.startsWith('{') && source.trimEnd().endsWith('}')) remove(range, 'expression', source);
  }
  for (const node of walk(tree)) {
    const range = rangeOf(node);
    if (node.type === 'html' && range !== null && JSX.test(node.value.trimStart()))
      remove(range, jsxName(node.value), node.value);
  }
  return removed;
}

/** Whether a text may hold an image: the second parse is skipped for one that holds none. */
const MAY_HOLD_IMAGE = /!\[|<img/i;

function withImagePaths(text: string, options: PrepareOptions): string {
  return MAY_HOLD_IMAGE.test(text) ? applyEdits(text, imageEdits(text, options.folder, options.fileFolder)) : text;
}

export function prepareBody(body: string, options: PrepareOptions): PreparedBody {
  const notes: ConversionNote[] = [];
  const hasTags = body.includes('{{') || body.includes('{%');
  if (!hasTags && !options.mdx && !options.titleFromHeading) return { markdown: withImagePaths(body, options), notes };
  const tree = fromMarkdown(body);
  const code: Range[] = [];
  for (const node of walk(tree))
    if (node.type === 'code' || node.type === 'inlineCode') {
      const range = rangeOf(node);
      if (range !== null) code.push(range);
    }
  const removed: Range[] = options.mdx ? mdxRemovals(tree, body, notes) : [];
  let title: string | undefined;
  if (options.titleFromHeading) {
    const heading = tree.children.find((node) => node.type === 'heading' && node.depth === 1);
    const range = heading === undefined ? null : rangeOf(heading);
    const text = heading === undefined ? '' : plain(heading);
    if (range !== null && text !== '') {
      title = text;
      removed.push(range);
    }
  }
  const outside = [...code, ...removed].sort((a, b) => a.start - b.start);
  const edits: Edit[] = [
    ...removed.map((range) => ({ ...range, text: '' })),
    ...expandTemplateTags(body, outside, notes),
  ];
  const expanded = applyEdits(body, edits);
  return { markdown: withImagePaths(expanded, options), ...(title === undefined ? {} : { title }), notes };
}
