import type { Definition, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { parseFragment, type DefaultTreeAdapterMap } from 'parse5';
import type { Edit } from './edits.js';
import { localPath, type MediaFolder } from './media.js';
import { walk } from './tree.js';

/*
 * Relative image sources made root-relative (`![](cover.png)` in `posts/hello/index.md` → `/posts/hello/cover.png`),
 * so that the runner, which asks locateMedia about a source without saying which file it came from, finds the
 * file. Markdown images and reference definitions are written anew; `<img src>` in raw HTML has its attribute
 * replaced at the offsets parse5 gives. A source that names no file of the folder is left as it was.
 */

type Element = DefaultTreeAdapterMap['element'];
type ParentNode = DefaultTreeAdapterMap['parentNode'];

/** A root path as a Markdown destination: every segment percent-encoded, parentheses included. */
function destination(rootPath: string): string {
  return rootPath
    .split('/')
    .map((segment) => encodeURIComponent(segment).replace(/[()]/g, (char) => `%${char.charCodeAt(0).toString(16)}`))
    .join('/');
}

const escapeLabel = (text: string) => text.replace(/\s+/g, ' ').replace(/[\\[\]]/g, (char) => `\\${char}`);
const titlePart = (title: string | null | undefined) =>
  title ? ` "${title.replace(/["\\]/g, (char) => `\\${char}`)}"` : '';
const escapeAttribute = (text: string) => text.replace(/[&"]/g, (char) => (char === '&' ? '&amp;' : '&quot;'));

const normalize = (label: string) => label.replace(/\s+/g, ' ').trim().toLowerCase();

function* elements(root: ParentNode): Generator<Element> {
  const stack = [...root.childNodes].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!('tagName' in node)) continue;
    yield node;
    const inner = node.tagName === 'template' ? [] : node.childNodes;
    for (let i = inner.length - 1; i >= 0; i -= 1) stack.push(inner[i]!);
  }
}

export function imageEdits(text: string, folder: MediaFolder, fileFolder: string): Edit[] {
  const tree: Root = fromMarkdown(text);
  const rewrite = (src: string): string | null => {
    const local = localPath(src);
    if (local === null || local.startsWith('/')) return null;
    const file = folder.find(src, fileFolder);
    return file === null ? null : destination(folder.rootPath(file));
  };
  const edits: Edit[] = [];
  const definitions = new Map<string, Definition>();
  const referenced = new Set<string>();
  for (const node of walk(tree)) {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start === undefined || end === undefined) continue;
    if (node.type === 'definition') {
      if (!definitions.has(normalize(node.identifier))) definitions.set(normalize(node.identifier), node);
    } else if (node.type === 'imageReference') referenced.add(normalize(node.identifier));
    else if (node.type === 'image') {
      const url = rewrite(node.url);
      if (url !== null)
        edits.push({ start, end, text: `![${escapeLabel(node.alt ?? '')}](${url}${titlePart(node.title)})` });
    } else if (node.type === 'html' && text.slice(start, end) === node.value) {
      for (const element of elements(parseFragment(node.value, { sourceCodeLocationInfo: true }))) {
        const location = element.sourceCodeLocation?.attrs?.src;
        const src = element.attrs.find((attribute) => attribute.name === 'src')?.value;
        const url = element.tagName === 'img' && src !== undefined ? rewrite(src) : null;
        if (url !== null && location !== undefined)
          edits.push({
            start: start + location.startOffset,
            end: start + location.endOffset,
            text: `src="${escapeAttribute(url)}"`,
          });
      }
    }
  }
  for (const id of referenced) {
    const definition = definitions.get(id);
    const start = definition?.position?.start.offset;
    const end = definition?.position?.end.offset;
    const url = definition === undefined ? null : rewrite(definition.url);
    if (definition !== undefined && start !== undefined && end !== undefined && url !== null)
      edits.push({ start, end, text: `[${definition.label ?? id}]: ${url}${titlePart(definition.title)}` });
  }
  return edits;
}
