import { BLOCK_LIMITS, htmlToBlocks, type BlockWrite, type ConversionNote } from '@quire/blocks';
import { field, isNode, type LexicalNode } from './lexical-node.js';
import { nodeNote, type Segment } from './ghost-segments.js';
import { escapeHtml } from './ghost-text.js';

/*
 * Ghost's cards, one by one. Where a card has a block that holds it, it is written as the HTML htmlToBlocks reads
 * as that block (a figure, a `kg-callout-card`, a `kg-btn`, `details`), so URLs are checked and text is escaped
 * in one place; what it has none for is noted by the card's name. The mapping is docs/imports-ghost.md's.
 */

/** Nodes of the editor's own, written by LexicalHtml. */
const ELEMENTS = new Set([
  'paragraph',
  'heading',
  'extended-heading',
  'quote',
  'extended-quote',
  'aside',
  'list',
  'horizontalrule',
]);

/** Cards are Lexical's decorator nodes: no children. An unknown node with children is an element, its text kept. */
export const isCard = (node: LexicalNode) => !ELEMENTS.has(field(node, 'type')) && !Array.isArray(node.children);

const bool = (node: LexicalNode, name: string) => node[name] === true;
const html = (markup: string, notes: ConversionNote[] = []): Segment => ({ kind: 'html', html: markup, notes });
const link = (url: string, text: string) => `<a href="${escapeHtml(url)}">${escapeHtml(text)}</a>`;

/** An HTML field of a card as inline Markdown: its paragraphs parted by a blank line. */
function inlineOf(markup: string): string {
  return htmlToBlocks(markup)
    .blocks.flatMap((block) => ('text' in block && typeof block.text === 'string' ? [block.text] : []))
    .join('\n\n');
}

function figure(src: string, alt: string, caption: string): string {
  const figcaption = caption.trim() === '' ? '' : `<figcaption>${caption}</figcaption>`;
  return `<figure><img src="${escapeHtml(src)}" alt="${escapeHtml(alt)}">${figcaption}</figure>`;
}

function image(node: LexicalNode): Segment[] {
  const src = field(node, 'src');
  if (src === '') return [html('', [nodeNote('unsupported', 'image', node)])];
  return [html(figure(src, field(node, 'alt'), field(node, 'caption')))];
}

function gallery(node: LexicalNode): Segment[] {
  const images = Array.isArray(node.images) ? node.images.filter(isNode) : [];
  const tags = images
    .filter((item) => field(item, 'src') !== '')
    .map((item) => `<img src="${escapeHtml(field(item, 'src'))}" alt="${escapeHtml(field(item, 'alt'))}">`);
  const caption = field(node, 'caption');
  if (tags.length === 0) return [];
  return [
    html(`<figure>${tags.join('')}${caption.trim() === '' ? '' : `<figcaption>${caption}</figcaption>`}</figure>`),
  ];
}

function code(node: LexicalNode): Segment[] {
  const language = field(node, 'language').replace(/[^A-Za-z0-9+#_-]/g, '');
  const klass = language === '' ? '' : ` class="language-${language}"`;
  const caption = field(node, 'caption');
  const segments = [html(`<pre><code${klass}>${escapeHtml(field(node, 'code'))}</code></pre>`)];
  // A code block has no caption: it follows as a paragraph.
  if (caption.trim() !== '') segments.push(html(`<p>${caption}</p>`, [nodeNote('approximated', 'codeblock', node)]));
  return segments;
}

function embed(node: LexicalNode): Segment[] {
  const url = field(node, 'url').trim();
  const metadata = isNode(node.metadata) ? node.metadata : {};
  const title = field(metadata, 'title').trim();
  const caption = field(node, 'caption');
  const after = caption.trim() === '' ? '' : `<p>${caption}</p>`;
  if (url === '') return [html(after, [nodeNote('unsupported', 'embed', node)])];
  // A lone link to a video or a post is the embed block htmlToBlocks makes of it; any other is a link.
  const probe = htmlToBlocks(`<p>${link(url, url)}</p>`).blocks[0];
  const isEmbed = probe?.type === 'video_embed' || probe?.type === 'tweet_embed';
  const notes = isEmbed ? [] : [nodeNote('approximated', 'embed', node)];
  return [html(`<p>${link(url, title === '' ? url : title)}</p>${after}`, notes)];
}

function bookmark(node: LexicalNode): Segment[] {
  const url = field(node, 'url').trim();
  const metadata = isNode(node.metadata) ? node.metadata : {};
  const title = field(metadata, 'title').trim() || url;
  const description = field(metadata, 'description').trim();
  const notes = [nodeNote('approximated', 'bookmark', node)];
  if (url === '') return [html('', notes)];
  const rest = description === '' ? '' : `: ${escapeHtml(description)}`;
  return [html(`<p>${link(url, title)}${rest}</p>`, notes)];
}

/** Ghost's callout colours: the ones with a meaning keep it, the decorative ones are information. */
const CALLOUT_COLOURS: Readonly<Record<string, string>> = { red: 'red', yellow: 'yellow', green: 'green' };

function callout(node: LexicalNode): Segment[] {
  const colour = CALLOUT_COLOURS[field(node, 'backgroundColor')] ?? 'blue';
  const emoji = field(node, 'calloutEmoji');
  return [
    html(
      `<div class="kg-callout-card kg-callout-card-${colour}">` +
        (emoji === '' ? '' : `<div class="kg-callout-emoji">${escapeHtml(emoji)}</div>`) +
        `<div class="kg-callout-text">${field(node, 'calloutText')}</div></div>`,
    ),
  ];
}

const button = (url: string, text: string) =>
  url.trim() === '' || text.trim() === '' ? '' : `<a class="kg-btn" href="${escapeHtml(url)}">${escapeHtml(text)}</a>`;

function toggles(nodes: readonly LexicalNode[]): Segment[] {
  const details = nodes.map(
    (node) => `<details><summary>${field(node, 'heading')}</summary><div>${field(node, 'content')}</div></details>`,
  );
  return [html(details.join(''))];
}

function header(node: LexicalNode): Segment[] {
  const parts = [
    field(node, 'header').trim() === '' ? '' : `<h2>${field(node, 'header')}</h2>`,
    field(node, 'subheader').trim() === '' ? '' : `<p>${field(node, 'subheader')}</p>`,
    bool(node, 'buttonEnabled') ? button(field(node, 'buttonUrl'), field(node, 'buttonText')) : '',
  ];
  // Its background image and layout are the card's looks, not its content.
  return [html(parts.join(''), [nodeNote('approximated', 'header', node)])];
}

/** A CTA block made directly: Quire's CTA has a title, which Ghost's cards hold in different fields. */
function cta(title: string, body: string, url: string, label: string): BlockWrite {
  let linkUrl = '';
  try {
    const parsed = new URL(url.trim());
    if (parsed.protocol === 'https:' || parsed.protocol === 'http:' || parsed.protocol === 'mailto:')
      linkUrl = url.trim();
  } catch {
    linkUrl = url.trim().startsWith('/') && !url.trim().startsWith('//') ? url.trim() : '';
  }
  if (linkUrl.length > BLOCK_LIMITS.url) linkUrl = '';
  return {
    type: 'cta',
    title: title.slice(0, 500),
    body: body.slice(0, BLOCK_LIMITS.text),
    linkUrl,
    linkLabel: linkUrl === '' ? '' : label.slice(0, 200),
    variant: 'default',
  };
}

function product(node: LexicalNode): Segment[] {
  const segments: Segment[] = [];
  const src = field(node, 'productImageSrc');
  if (src !== '' && !src.startsWith('data:')) segments.push(html(figure(src, '', '')));
  const withButton = bool(node, 'productButtonEnabled');
  segments.push({
    kind: 'blocks',
    blocks: [
      cta(
        inlineOf(field(node, 'productTitle')),
        inlineOf(field(node, 'productDescription')),
        withButton ? field(node, 'productUrl') : '',
        withButton ? field(node, 'productButton') : '',
      ),
    ],
    // The star rating has no place in a CTA.
    notes: bool(node, 'productRatingEnabled') ? [nodeNote('approximated', 'product', node)] : [],
  });
  return segments;
}

function callToAction(node: LexicalNode): Segment[] {
  const segments: Segment[] = [];
  const src = field(node, 'imageUrl');
  if (bool(node, 'hasImage') && src !== '') segments.push(html(figure(src, '', '')));
  const withButton = node.showButton !== false;
  segments.push({
    kind: 'blocks',
    blocks: [
      cta(
        bool(node, 'hasSponsorLabel') ? inlineOf(field(node, 'sponsorLabel')) : '',
        inlineOf(field(node, 'textValue')),
        withButton ? field(node, 'buttonUrl') : '',
        withButton ? field(node, 'buttonText') : '',
      ),
    ],
    notes: [],
  });
  return segments;
}

/** The segments of one card, or of a group of toggles side by side. */
export function cardSegments(nodes: readonly LexicalNode[]): Segment[] {
  const node = nodes[0]!;
  const type = field(node, 'type');
  switch (type) {
    case 'image':
      return image(node);
    case 'gallery':
      return gallery(node);
    case 'codeblock':
      return code(node);
    case 'markdown':
      return [{ kind: 'markdown', markdown: field(node, 'markdown'), notes: [] }];
    case 'html':
      return [html(field(node, 'html'))];
    case 'embed':
      return embed(node);
    case 'bookmark':
      return bookmark(node);
    case 'callout':
      return callout(node);
    case 'button':
      return [html(button(field(node, 'buttonUrl'), field(node, 'buttonText')))];
    case 'toggle':
      return toggles(nodes);
    case 'header':
      return header(node);
    case 'product':
      return product(node);
    case 'call-to-action':
      return callToAction(node);
    default:
      // signup, audio, video, file, paywall, email, email-cta, collection and any card of a newer editor: what a
      // form, a player, a newsletter or a member's view shows has no block.
      return [html('', [nodeNote('unsupported', type === '' ? 'card' : type, node)])];
  }
}
