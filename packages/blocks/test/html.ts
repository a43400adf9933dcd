import { parseFragment, serialize, type DefaultTreeAdapterMap } from 'parse5';

export type Element = DefaultTreeAdapterMap['element'];
type ParentNode = DefaultTreeAdapterMap['parentNode'];
type ChildNode = DefaultTreeAdapterMap['childNode'];

/** The HTML as a browser's parser builds it (parse5 follows the WHATWG algorithm), in a `<body>`. */
export function parse(html: string): DefaultTreeAdapterMap['documentFragment'] {
  return parseFragment(html);
}

const isElement = (node: ChildNode): node is Element => 'tagName' in node;

/** Every element under `root`, in document order. */
export function elements(root: ParentNode): Element[] {
  const found: Element[] = [];
  const walk = (node: ParentNode) => {
    for (const child of node.childNodes) {
      if (isElement(child)) {
        found.push(child);
        walk(child);
      } else if ('content' in child) walk(child.content as ParentNode);
    }
  };
  walk(root);
  return found;
}

/** The top-level elements of a fragment: one per rendered block. */
export function topLevel(html: string): Element[] {
  return parse(html).childNodes.filter(isElement);
}

export function attr(element: Element, name: string): string | undefined {
  return element.attrs.find((a) => a.name === name)?.value;
}

export function attrs(element: Element): Record<string, string> {
  return Object.fromEntries(element.attrs.map((a) => [a.name, a.value]));
}

/** The text a reader sees (textContent). */
export function text(node: ParentNode | ChildNode): string {
  if ('value' in node && node.nodeName === '#text') return node.value;
  return 'childNodes' in node ? node.childNodes.map(text).join('') : '';
}

export function tags(root: ParentNode): string[] {
  return elements(root).map((element) => element.tagName);
}

export function only(root: ParentNode, tag: string): Element {
  const found = elements(root).filter((element) => element.tagName === tag);
  if (found.length !== 1) throw new Error(`expected one <${tag}>, found ${found.length}`);
  return found[0]!;
}

export function all(root: ParentNode, tag: string): Element[] {
  return elements(root).filter((element) => element.tagName === tag);
}

export { serialize };

/** What renderBlocks may write, and nothing else. */
const ELEMENTS = new Set(
  'p h2 h3 h4 ul ol li figure figcaption picture source img pre code blockquote cite hr aside details summary section a span em strong del br'.split(
    ' ',
  ),
);
const ATTRIBUTES = new Set(
  'class id href title src srcset sizes type width height alt loading decoding style role tabindex data-language data-provider data-video-id data-embed-url data-post-id'.split(
    ' ',
  ),
);
const PLACEHOLDER_STYLE =
  /^(?:background-color:#[0-9a-fA-F]{6})?(?:;?background-image:url\(data:image\/(?:webp|png|jpeg|avif);base64,[A-Za-z0-9+/]+={0,2}\);background-size:cover)?$/;
const PLAYERS = /^https:\/\/(?:www\.youtube-nocookie\.com\/embed\/|player\.vimeo\.com\/video\/)/;

/**
 * A URL as a browser reads it: leading and trailing C0 controls and spaces stripped, tabs and newlines removed
 * anywhere. Allowed: no scheme (a path, query or fragment of the page's own site) or http, https, mailto.
 */
export function allowedUrl(value: string): boolean {
  // eslint-disable-next-line no-control-regex
  const url = value.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
  if (/^[/\\]{2}/.test(url)) return false;
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url)?.[1];
  return scheme === undefined ? !/^[^/?#]*:/.test(url) : ['http', 'https', 'mailto'].includes(scheme.toLowerCase());
}

/** Everything unsafe in the HTML once parsed: each an element, attribute or URL outside the allow-lists. */
export function violations(html: string): string[] {
  const found: string[] = [];
  for (const element of elements(parse(html))) {
    if (!ELEMENTS.has(element.tagName)) found.push(`<${element.tagName}>`);
    for (const { name, value } of element.attrs) {
      if (!ATTRIBUTES.has(name)) found.push(`<${element.tagName} ${name}>`);
      if ((name === 'href' || name === 'src') && !allowedUrl(value)) found.push(`${name}=${JSON.stringify(value)}`);
      if (name === 'srcset')
        for (const candidate of value.split(','))
          if (!allowedUrl(candidate.trim().split(/\s+/)[0] ?? '')) found.push(`srcset=${JSON.stringify(value)}`);
      if (name === 'style' && !PLACEHOLDER_STYLE.test(value)) found.push(`style=${JSON.stringify(value)}`);
      if (name === 'data-embed-url' && !PLAYERS.test(value)) found.push(`data-embed-url=${JSON.stringify(value)}`);
    }
  }
  return found;
}

/** The HTML as parsed and written back, written back again: a second pass must change nothing. */
export function reserializedTwice(html: string): [string, string] {
  const once = serialize(parse(html));
  return [once, serialize(parse(once))];
}
