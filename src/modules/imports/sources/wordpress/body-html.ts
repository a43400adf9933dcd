import { postEmbedOf, videoEmbedOf } from '@quire/blocks';
import { defaultTreeAdapter as tree, parseFragment, serialize, type DefaultTreeAdapterMap } from 'parse5';
import { attachment, embedHtml, type BodyContext } from './body-context.js';
import { hasBlocks } from './gutenberg.js';
import { blocksHtml } from './gutenberg-html.js';
import type { MediaLocator } from './media.js';
import { expandShortcodes } from './shortcode-html.js';
import { storableText } from './storable.js';
import { wpautop } from './wpautop.js';

/*
 * A post's content as the HTML its blocks convert from, built as WordPress builds the page: block content from its
 * blocks, classic content through auto-embeds and wpautop; shortcodes in both. Images left without alt text get
 * their attachment's.
 */

type Node = DefaultTreeAdapterMap['childNode'];
type Element = DefaultTreeAdapterMap['element'];
type Parent = DefaultTreeAdapterMap['parentNode'];

const isElement = (node: Node): node is Element => 'tagName' in node;
const attr = (element: Element, name: string) => element.attrs.find((attribute) => attribute.name === name)?.value;

const embeddable = (url: string) => videoEmbedOf(url) !== null || postEmbedOf(url) !== null;

export function bodyHtml(content: string, context: BodyContext, locator: MediaLocator): string {
  const clean = storableText(content).replace(/\r\n?/g, '\n');
  const blocks = hasBlocks(clean);
  const source = blocks
    ? expandShortcodes(blocksHtml(clean, context), context)
    : expandShortcodes(autoEmbedLines(clean, context), context);
  const fragment = parseFragment(source);
  if (!blocks) wpautop(fragment);
  finish(fragment, context, locator);
  return serialize(fragment);
}

/** A line that is a video's or a post's URL alone: WordPress embeds it (classic content's auto-embed). */
function autoEmbedLines(content: string, context: BodyContext): string {
  return content
    .split('\n')
    .map((line) => {
      const url = line.trim();
      return /^https?:\/\/\S+$/i.test(url) && embeddable(url) ? `\n${embedHtml(context, url, 'embed')}\n` : line;
    })
    .join('\n');
}

/** Paragraphs holding only an embeddable URL made embeds; images without alt text given their attachment's. */
function finish(parent: Parent, context: BodyContext, locator: MediaLocator): void {
  const nodes = parent.childNodes as Node[];
  nodes.forEach((node, at) => {
    if (!isElement(node)) return;
    if (node.tagName === 'img') return altFromAttachment(node, context, locator);
    if (node.tagName === 'p') {
      const only = (node.childNodes as Node[]).filter(
        (child) => child.nodeName !== '#text' || (child as DefaultTreeAdapterMap['textNode']).value.trim() !== '',
      );
      const url =
        only.length === 1 && only[0]!.nodeName === '#text'
          ? (only[0] as DefaultTreeAdapterMap['textNode']).value.trim()
          : '';
      if (/^https?:\/\/\S+$/i.test(url) && embeddable(url)) {
        const figure = parseFragment(embedHtml(context, url, 'embed')).childNodes[0] as Element;
        nodes[at] = figure;
        figure.parentNode = parent;
        return;
      }
    }
    finish(
      node.tagName === 'template' ? tree.getTemplateContent(node as DefaultTreeAdapterMap['template']) : node,
      context,
      locator,
    );
  });
}

function altFromAttachment(image: Element, context: BodyContext, locator: MediaLocator): void {
  if ((attr(image, 'alt') ?? '').trim() !== '') return;
  const byClass = /(?:^|\s)wp-image-(\d+)(?:\s|$)/.exec(attr(image, 'class') ?? '')?.[1];
  const found =
    (byClass === undefined ? undefined : attachment(context, byClass)) ??
    locator.attachmentOf(attr(image, 'src') ?? '');
  if (found === undefined || found.alt === '') return;
  context.used.set(found.id, found);
  image.attrs = [...image.attrs.filter((attribute) => attribute.name !== 'alt'), { name: 'alt', value: found.alt }];
}
