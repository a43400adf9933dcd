import { attributes, element, type Attribute } from '../escape.js';
import type { ImageBlock, ImageBlockWrite, SrcsetEntry, StoredImageBlock } from '../types.js';
import { safeUrl } from '../url.js';
import type { RenderContext } from './context.js';

/** A data URI the placeholder may paint: a base64 raster image, nothing that could leave the CSS `url()`. */
const PLACEHOLDER_URI = /^data:image\/(?:webp|png|jpeg|avif);base64,[A-Za-z0-9+/]+={0,2}$/;
const COLOR = /^#[0-9a-fA-F]{6}$/;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const dimension = (value: unknown) =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;

/** `url 320w, url 640w`, keeping the entries whose URL may be a source and cannot split the list. */
function srcsetOf(entries: unknown, context: RenderContext): string | undefined {
  if (!Array.isArray(entries)) return undefined;
  const candidates: string[] = [];
  for (const entry of entries as unknown[]) {
    if (!isObject(entry)) continue;
    const { url, width } = entry as Partial<SrcsetEntry>;
    const src = typeof url === 'string' ? safeUrl(url, context.base) : null;
    if (src === null || /[\s,]/.test(src) || dimension(width) === undefined) continue;
    candidates.push(`${src} ${width}w`);
  }
  return candidates.length > 0 ? candidates.join(', ') : undefined;
}

/** The placeholder painted under the image while it loads: the dominant colour and the blurred preview. */
function placeholderStyle(placeholder: unknown): string | undefined {
  if (!isObject(placeholder)) return undefined;
  const rules: string[] = [];
  if (typeof placeholder.color === 'string' && COLOR.test(placeholder.color))
    rules.push(`background-color:${placeholder.color}`);
  if (typeof placeholder.dataUri === 'string' && PLACEHOLDER_URI.test(placeholder.dataUri))
    rules.push(`background-image:url(${placeholder.dataUri})`, 'background-size:cover');
  return rules.length > 0 ? rules.join(';') : undefined;
}

/**
 * A figure with a picture: AVIF and WebP sources, then the image in its own format. Nothing when its media is
 * gone (url null) or its url may not be a source. The alt text is always there: empty when the author gave none,
 * which says the image is decoration.
 */
export function image(block: ImageBlock | ImageBlockWrite | StoredImageBlock, context: RenderContext): string {
  const url = 'url' in block && typeof block.url === 'string' ? safeUrl(block.url, context.base) : null;
  if (url === null) return '';
  const srcset = 'srcset' in block && isObject(block.srcset) ? block.srcset : undefined;
  const sources: string[] = [];
  for (const [format, type] of [
    ['avif', 'image/avif'],
    ['webp', 'image/webp'],
  ] as const) {
    const set = srcsetOf(srcset?.[format], context);
    if (set !== undefined)
      sources.push(
        `<source${attributes([
          ['type', type],
          ['srcset', set],
          ['sizes', context.sizes],
        ])}>`,
      );
  }
  const ownSet = srcsetOf(srcset?.original, context);
  const img: Attribute[] = [
    ['src', url],
    ['srcset', ownSet],
    ['sizes', ownSet === undefined ? undefined : context.sizes],
    ['width', dimension('width' in block ? block.width : undefined)],
    ['height', dimension('height' in block ? block.height : undefined)],
    ['alt', block.alt ?? ''],
    ['loading', 'lazy'],
    ['decoding', 'async'],
    ['style', placeholderStyle('placeholder' in block ? block.placeholder : undefined)],
  ];
  const picture = element('picture', [], sources.join('') + `<img${attributes(img)}>`);
  const caption = context.isBlank(block.caption) ? '' : element('figcaption', [], context.inline(block.caption));
  return element('figure', [['class', 'quire-image']], picture + caption);
}
