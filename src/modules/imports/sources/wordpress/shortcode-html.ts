import { parseFragment, serializeOuter, type DefaultTreeAdapterMap } from 'parse5';
import { attachment, attachmentFigure, embedHtml, escapeText, note, type BodyContext } from './body-context.js';
import { replaceShortcodes, type Shortcode } from './shortcodes.js';

/*
 * The shortcodes WordPress core and Jetpack render, as the HTML their output would convert from: a captioned
 * image, a gallery's images, an embed. Any other is left out and noted; an enclosing one keeps its content.
 */

type Node = DefaultTreeAdapterMap['childNode'];
type Element = DefaultTreeAdapterMap['element'];
const isElement = (node: Node): node is Element => 'tagName' in node;

export function expandShortcodes(html: string, context: BodyContext): string {
  return replaceShortcodes(html, (shortcode) => expand(shortcode, context));
}

function expand(shortcode: Shortcode, context: BodyContext): string {
  const first = (shortcode.attrs['0'] ?? '').replace(/^=/, '');
  switch (shortcode.name) {
    case 'caption':
    case 'wp_caption':
      return caption(shortcode, context);
    case 'gallery':
      return gallery(shortcode, context);
    case 'embed':
      return embedHtml(context, shortcode.content ?? shortcode.attrs.url ?? '', '[embed]');
    case 'youtube':
      return embedHtml(
        context,
        /^[\w-]{11}$/.test(first) ? `https://www.youtube.com/watch?v=${first}` : first,
        '[youtube]',
      );
    case 'vimeo':
      return embedHtml(context, /^\d+$/.test(first) ? `https://vimeo.com/${first}` : first, '[vimeo]');
    case 'tweet':
      return embedHtml(context, shortcode.attrs.tweet ?? first, '[tweet]');
    default:
      note(context, 'unsupported', `[${shortcode.name}]`, shortcode.source);
      return shortcode.content === null ? '' : expandShortcodes(shortcode.content, context);
  }
}

/** `[caption]<a><img></a> The caption[/caption]`: the image, its caption the text after it (or the attribute). */
function caption(shortcode: Shortcode, context: BodyContext): string {
  const fragment = parseFragment(expandShortcodes(shortcode.content ?? '', context));
  const nodes = fragment.childNodes as Node[];
  const holdsImage = (node: Node): boolean =>
    isElement(node) && (node.tagName === 'img' || (node.childNodes as Node[]).some(holdsImage));
  const at = nodes.findIndex(holdsImage);
  if (at < 0) {
    note(context, 'approximated', '[caption]', shortcode.source);
    return shortcode.content ?? '';
  }
  const text = nodes
    .filter((_, position) => position !== at)
    .map((node) =>
      isElement(node)
        ? serializeOuter(node)
        : node.nodeName === '#text'
          ? escapeText((node as DefaultTreeAdapterMap['textNode']).value)
          : '',
    )
    .join('')
    .trim();
  const captionHtml = text !== '' ? text : escapeText(shortcode.attrs.caption ?? '');
  const image = serializeOuter(nodes[at] as Element);
  return captionHtml === ''
    ? `<figure>${image}</figure>`
    : `<figure>${image}<figcaption>${captionHtml}</figcaption></figure>`;
}

/** `[gallery ids="1,2"]` (or `include`), else the images uploaded to the post itself, as WordPress shows them. */
function gallery(shortcode: Shortcode, context: BodyContext): string {
  const listed = shortcode.attrs.ids ?? shortcode.attrs.include;
  const ids =
    listed !== undefined
      ? listed
          .split(',')
          .map((id) => id.trim())
          .filter(Boolean)
      : (context.index.attachmentsByParent.get(context.postId) ?? []);
  const figures = ids.flatMap((id) => {
    const found = attachment(context, id);
    return found === undefined || found.url === '' ? [] : [attachmentFigure(found)];
  });
  if (figures.length < ids.length || ids.length === 0)
    note(
      context,
      'unresolved-image',
      '[gallery]',
      `${ids.length - figures.length} of ${ids.length} images not in the export: ${shortcode.source}`,
    );
  return figures.join('');
}
