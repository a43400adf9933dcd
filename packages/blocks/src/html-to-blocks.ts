import { parse, serializeOuter, type DefaultTreeAdapterMap } from 'parse5';
import {
  escapeMarkdown,
  excerptOf,
  fitLimits,
  linkDestination,
  type ConversionNote,
  type ConversionResult,
  type ConvertOptions,
  type ImageRef,
} from './convert-report.js';
import { postEmbedOf, videoEmbedOf } from './embeds.js';
import type { BlockWrite, CalloutVariant, FaqItem } from './types.js';
import { safeUrl } from './url.js';
import {
  absolute,
  BLOCK,
  codeSpan,
  HARD_BREAK,
  hasBlockInside,
  HEADING,
  IGNORED,
  isBlank,
  isBlockLike,
  isButton,
  isWordListMarker,
  isWordListParagraph,
  marksOf,
  NO_MARKS,
  signature,
  tidy,
  UNSUPPORTED,
  wrap,
  type Marks,
} from './html-elements.js';
import {
  attr,
  children,
  classes,
  descendants,
  flattenDeep,
  hasClass,
  isElement,
  styleOf,
  textContent,
  type Element,
  type Node,
} from './html-tree.js';

export { MAX_DEPTH } from './html-tree.js';

/*
 * HTML to blocks. The input is parsed as a browser parses it (parse5, the WHATWG algorithm), never read by pattern,
 * and never run: scripts, styles, frames and forms are reported, not followed. Block elements become blocks, the
 * phrasing content inside them inline Markdown; what has no block is in the report. The mapping is in
 * docs/blocks.md, "Converting into blocks".
 */

class HtmlConverter {
  readonly blocks: BlockWrite[] = [];
  readonly notes: ConversionNote[] = [];
  readonly images: ImageRef[] = [];
  /** Inline content waiting to be a paragraph. */
  private run: Node[] = [];
  /** Images and embeds found inside a link or a mark, put after the block that held them. */
  private hoisted: BlockWrite[] = [];
  /** Nodes read already as something else (a quote's attribution), left out of the text around them. */
  private readonly skip = new Set<Node>();

  constructor(private readonly options: ConvertOptions) {}

  note(kind: ConversionNote['kind'], element: string, source: string | Element): void {
    const text = typeof source === 'string' ? source : serializeOuter(source);
    this.notes.push({ kind, element, excerpt: excerptOf(text) });
  }

  private push(block: BlockWrite | undefined): void {
    if (block !== undefined) this.blocks.push(block);
    this.blocks.push(...this.hoisted);
    this.hoisted = [];
  }

  /** Flow content: runs of phrasing content become paragraphs, block elements blocks. */
  flow(nodes: readonly Node[]): void {
    for (let i = 0; i < nodes.length; i += 1) {
      const node = nodes[i]!;
      if (this.skip.has(node)) continue;
      if (!isElement(node)) {
        if (node.nodeName === '#text') this.run.push(node);
        continue;
      }
      if (isWordListParagraph(node) || node.tagName === 'details') {
        // Consecutive siblings make one block: Word's list paragraphs one list, disclosures one FAQ.
        const group = [node];
        let j = i + 1;
        for (; j < nodes.length; j += 1) {
          const next = nodes[j]!;
          if (isBlank(next)) continue;
          if (
            isElement(next) &&
            next.tagName === node.tagName &&
            isWordListParagraph(next) === isWordListParagraph(node)
          )
            group.push(next);
          else break;
        }
        this.flush();
        if (node.tagName === 'details') this.faq(group);
        else this.wordList(group);
        i = j - 1;
        continue;
      }
      if (!isBlockLike(node) && !hasBlockInside(node)) {
        this.run.push(node);
        continue;
      }
      this.flush();
      this.block(node);
      this.flush();
    }
  }

  /** The waiting run of phrasing content as a paragraph (or an embed, for a lone link to a video or a post). */
  flush(): void {
    const run = this.run;
    this.run = [];
    const content = run.filter((node) => !isBlank(node));
    if (content.length === 0) return this.push(undefined);
    let only: Node | undefined = content.length === 1 ? content[0] : undefined;
    // A lone link in formatting of its own (a clipboard's spans) is still a lone link.
    while (only !== undefined && isElement(only) && only.tagName !== 'a') {
      const inner: Node[] = children(only).filter((node) => !isBlank(node));
      only = inner.length === 1 && !BLOCK.has(only.tagName) ? inner[0] : undefined;
    }
    if (only !== undefined && isElement(only)) {
      const embed = this.embedOfLink(only);
      if (embed !== undefined) return this.push(embed);
    }
    const text = this.inline(run);
    this.push(text === '' ? undefined : { type: 'paragraph', text });
  }

  private embedOfLink(link: Element): BlockWrite | undefined {
    const href = absolute(attr(link, 'href') ?? '');
    if (href.length > 2000) return undefined;
    const text = this.inline(children(link), true);
    if (videoEmbedOf(href) !== null)
      return {
        type: 'video_embed',
        url: href,
        ...(text !== '' && text !== escapeMarkdown(href) ? { title: text } : {}),
      };
    if (postEmbedOf(href) !== null) return { type: 'tweet_embed', url: href };
    return undefined;
  }

  block(element: Element): void {
    const tag = element.tagName;
    if (IGNORED.has(tag)) return;
    if (isButton(element)) return this.button(element);
    if (hasClass(element, 'kg-callout-card')) return this.ghostCallout(element);
    if (hasClass(element, 'quire-takeaways')) return this.takeaways(element);
    if (hasClass(element, 'quire-cta')) return this.cta(element);
    if (tag === 'aside' || hasClass(element, 'callout')) return this.callout(element);
    if (tag === 'iframe') return this.push(this.iframe(element));
    if (UNSUPPORTED.has(tag)) return this.note('unsupported', tag, element);
    const level = HEADING[tag];
    if (level !== undefined) {
      const text = this.inline(children(element));
      return this.push(text === '' ? undefined : { type: 'heading', level, text });
    }
    switch (tag) {
      case 'p':
        this.flow(children(element));
        return this.flush();
      case 'ul':
      case 'ol':
        return this.list(element);
      case 'blockquote':
        return this.blockquote(element, undefined);
      case 'figure':
        return this.figure(element);
      case 'img':
        return this.push(this.image(element, undefined));
      case 'pre':
        return this.code(element);
      case 'hr':
        return this.push({ type: 'divider' });
      case 'table':
        return this.table(element);
      default:
        // A container (div, section, a clipboard's wrapper): its content in order.
        this.flow(children(element));
        return this.flush();
    }
  }

  /** Phrasing content as inline Markdown; images and embeds inside are put after the block (hoisted). */
  inline(nodes: readonly Node[], noLinks = false): string {
    return tidy(this.phrasing(nodes, NO_MARKS, noLinks));
  }

  private phrasing(nodes: readonly Node[], marks: Marks, noLinks: boolean): string {
    let out = '';
    for (const node of nodes) {
      if (this.skip.has(node)) continue;
      if (node.nodeName === '#text')
        out += escapeMarkdown((node as DefaultTreeAdapterMap['textNode']).value.replace(/[ \t\n\r\f]+/g, ' '));
      else if (isElement(node)) out += this.phrasingElement(node, marks, noLinks);
    }
    return out;
  }

  private phrasingElement(element: Element, marks: Marks, noLinks: boolean): string {
    const tag = element.tagName;
    if (IGNORED.has(tag) || isWordListMarker(element)) return '';
    if (tag === 'br') return HARD_BREAK;
    if (tag === 'img') {
      const image = this.image(element, undefined);
      if (image !== undefined) this.hoisted.push(image);
      return '';
    }
    if (tag === 'iframe') {
      const embed = this.iframe(element);
      if (embed !== undefined) this.hoisted.push(embed);
      return '';
    }
    if (UNSUPPORTED.has(tag)) {
      this.note('unsupported', tag, element);
      return '';
    }
    if (tag === 'code' || tag === 'kbd' || tag === 'samp' || tag === 'tt') {
      const code = textContent(element).replace(/[ \t\n\r\f]+/g, ' ');
      return code.trim() === '' ? code : codeSpan(code);
    }
    if (tag === 'ul' || tag === 'ol') {
      // A list inside text (a list item's, a quote's): its items as lines.
      this.note('approximated', tag, element);
      return descendants(element, (inner) => inner.tagName === 'li')
        .map((item) => HARD_BREAK + this.phrasing(children(item), marks, noLinks))
        .join('');
    }
    if (BLOCK.has(tag)) {
      // A block inside text (a list item's paragraphs): its own line.
      const inner = this.phrasing(children(element), marks, noLinks);
      return `${HARD_BREAK}${inner}${HARD_BREAK}`;
    }
    if (tag === 'a') return this.link(element, marks, noLinks);
    const own = marksOf(element);
    const next: Marks = {
      bold: marks.bold || own.bold,
      italic: marks.italic || own.italic,
      strike: marks.strike || own.strike,
    };
    let inner = this.phrasing(children(element), next, noLinks);
    if (next.italic && !marks.italic) inner = wrap(inner, '*');
    if (next.bold && !marks.bold) inner = wrap(inner, '**');
    if (next.strike && !marks.strike) inner = wrap(inner, '~~');
    return inner;
  }

  private link(element: Element, marks: Marks, noLinks: boolean): string {
    const text = this.phrasing(children(element), marks, true);
    const href = (attr(element, 'href') ?? '').trim();
    if (noLinks || href === '' || text.trim() === '') return text;
    if (safeUrl(href) === null) {
      this.note('link-removed', 'a', element);
      return text;
    }
    const title = attr(element, 'title');
    const titlePart =
      title === undefined || title.trim() === '' ? '' : ` "${title.replace(/["\\]/g, (char) => `\\${char}`)}"`;
    const lead = /^ */.exec(text)![0];
    const trail = / *$/.exec(text)![0];
    return `${lead}[${text.trim()}](${linkDestination(href)}${titlePart})${trail}`;
  }

  /** A block's text from flow content (a quote's, an answer's): its paragraphs parted by a blank line. */
  private paragraphs(nodes: readonly Node[]): string {
    const parts: string[] = [];
    let run: Node[] = [];
    const end = () => {
      const text = this.inline(run);
      if (text !== '') parts.push(text);
      run = [];
    };
    for (const node of nodes) {
      if (this.skip.has(node)) continue;
      if (isElement(node) && (node.tagName === 'p' || node.tagName === 'div') && !isWordListParagraph(node)) {
        end();
        parts.push(this.paragraphs(children(node)));
      } else run.push(node);
    }
    end();
    return parts.filter((part) => part !== '').join('\n\n');
  }

  private list(element: Element): void {
    const items: string[] = [];
    let nested = false;
    const collect = (list: Element) => {
      for (const item of children(list)) {
        if (isBlank(item) || !isElement(item)) continue;
        const inner = children(item).filter(
          (node) => !(isElement(node) && (node.tagName === 'ul' || node.tagName === 'ol')),
        );
        const text = this.paragraphs(inner).replace(/\n\n/g, HARD_BREAK);
        if (text !== '') items.push(text);
        for (const node of children(item))
          if (isElement(node) && (node.tagName === 'ul' || node.tagName === 'ol')) {
            nested = true;
            collect(node);
          }
      }
    };
    collect(element);
    if (nested) this.note('approximated', element.tagName, element);
    this.push(
      items.length === 0 ? undefined : { type: 'list', style: element.tagName === 'ol' ? 'ordered' : 'bullet', items },
    );
  }

  private wordList(paragraphs: Element[]): void {
    let style: 'bullet' | 'ordered' | undefined;
    let items: string[] = [];
    const end = () => {
      if (style !== undefined && items.length > 0) this.push({ type: 'list', style, items });
      items = [];
    };
    for (const paragraph of paragraphs) {
      const marker = descendants(paragraph, isWordListMarker)
        .map((inner) => textContent(inner))
        .join('')
        .trim();
      const itemStyle = /^(?:\d+|[a-z]|[ivxlcdm]+)[.)]/i.test(marker) ? 'ordered' : 'bullet';
      if (itemStyle !== style) end();
      style = itemStyle;
      const level = /level(\d+)/.exec(styleOf(paragraph).get('mso-list') ?? '');
      if (level !== null && Number(level[1]) > 1) this.note('approximated', 'p', paragraph);
      const text = this.inline(children(paragraph));
      if (text !== '') items.push(text);
    }
    end();
  }

  /** `ownCaption`: Quire's own quote figure, whose caption is the attribution as written (no dash to take off). */
  private blockquote(element: Element, caption: Element | undefined, ownCaption = false): void {
    if (hasClass(element, 'twitter-tweet')) {
      const links = descendants(
        element,
        (inner) => inner.tagName === 'a' && postEmbedOf(attr(inner, 'href') ?? '') !== null,
      );
      const last = links.at(-1);
      if (last !== undefined) return this.push({ type: 'tweet_embed', url: attr(last, 'href')!.trim() });
    }
    let attribution: string | undefined;
    const source =
      caption ??
      descendants(element, (inner) => inner.tagName === 'footer').at(-1) ??
      descendants(element, (inner) => inner.tagName === 'cite').at(-1) ??
      signature(element);
    if (source !== undefined) {
      this.skip.add(source);
      attribution = this.inline(children(source));
      if (!ownCaption) attribution = attribution.replace(/^(?:—|–|-{1,2}) ?/, '');
    } else {
      const cite = attr(element, 'cite')?.trim();
      if (cite !== undefined && /^https?:\/\//i.test(cite) && safeUrl(cite) !== null)
        attribution = `[${escapeMarkdown(cite)}](${linkDestination(cite)})`;
    }
    const text = this.paragraphs(children(element));
    if (text === '' && (attribution ?? '') === '') return this.push(undefined);
    this.push({ type: 'quote', text, ...(attribution ? { attribution } : {}) });
  }

  private figure(element: Element): void {
    const caption = children(element).find((node): node is Element => isElement(node) && node.tagName === 'figcaption');
    const links = descendants(element, (inner) => inner.tagName === 'a');
    if (hasClass(element, 'quire-embed') && links.length > 0) {
      const embed = this.embedOfLink(links[0]!);
      if (embed !== undefined) return this.push(embed);
      const href = absolute(attr(links[0]!, 'href') ?? '');
      if (hasClass(element, 'quire-embed--video') && /^https?:\/\//i.test(href) && href.length <= 2000) {
        const title = this.inline(children(links[0]!), true);
        return this.push({
          type: 'video_embed',
          url: href,
          ...(title !== '' && title !== escapeMarkdown(href) ? { title } : {}),
        });
      }
    }
    const quote = descendants(element, (inner) => inner.tagName === 'blockquote')[0];
    if (quote !== undefined) return this.blockquote(quote, caption, hasClass(element, 'quire-quote'));
    const images = descendants(element, (inner) => inner.tagName === 'img');
    if (images.length > 0) {
      const text = caption === undefined ? '' : this.inline(children(caption));
      images.forEach((image, at) =>
        this.push(this.image(image, at === images.length - 1 && text !== '' ? text : undefined)),
      );
      return;
    }
    const frame = descendants(element, (inner) => inner.tagName === 'iframe')[0];
    if (frame !== undefined) {
      const embed = this.iframe(frame);
      const title = caption === undefined ? '' : this.inline(children(caption), true);
      if (embed?.type === 'video_embed' && embed.title === undefined && title !== '') embed.title = title;
      return this.push(embed);
    }
    this.flow(children(element));
    this.flush();
  }

  /** An image: a block when its source resolves to a media id, else reported. Always listed in the report. */
  private image(element: Element, caption: string | undefined): BlockWrite | undefined {
    const src = (attr(element, 'src') || attr(element, 'data-src') || '').trim();
    const alt = (attr(element, 'alt') ?? '').replace(/\s+/g, ' ').trim();
    const mediaId = src === '' ? null : (this.options.resolveImage?.(src, alt) ?? null);
    this.images.push({ type: 'image', src, alt, ...(caption === undefined ? {} : { caption }), mediaId });
    if (mediaId === null) {
      this.note('unresolved-image', 'img', element);
      return undefined;
    }
    return { type: 'image', mediaId, ...(alt === '' ? {} : { alt }), ...(caption === undefined ? {} : { caption }) };
  }

  private iframe(element: Element): BlockWrite | undefined {
    const src = absolute(attr(element, 'src') ?? '');
    if (src.length <= 2000 && videoEmbedOf(src) !== null) {
      const title = escapeMarkdown((attr(element, 'title') ?? '').replace(/\s+/g, ' ').trim());
      return { type: 'video_embed', url: src, ...(title === '' ? {} : { title }) };
    }
    this.note('unsupported', 'iframe', element);
    return undefined;
  }

  private code(element: Element): void {
    const inner = children(element).filter((node) => !isBlank(node));
    const code = inner.length === 1 && isElement(inner[0]!) && inner[0].tagName === 'code' ? inner[0] : undefined;
    let language = attr(element, 'data-language') ?? '';
    for (const name of [...(code === undefined ? [] : classes(code)), ...classes(element)]) {
      const match = /^(?:language|lang)-(.+)$/.exec(name);
      if (match !== null) {
        language = match[1]!;
        break;
      }
    }
    // A final line ending is how most HTML ends a code block, not part of the code.
    const text = textContent(element).replace(/\n$/, '');
    this.push(text.trim() === '' ? undefined : { type: 'code', language: language.toLowerCase(), code: text });
  }

  private faq(details: Element[]): void {
    const items: FaqItem[] = [];
    for (const disclosure of details) {
      const summary = children(disclosure).find(
        (node): node is Element => isElement(node) && node.tagName === 'summary',
      );
      const question = summary === undefined ? '' : this.inline(children(summary), true);
      const answer = this.paragraphs(children(disclosure).filter((node) => node !== summary));
      if (question !== '' || answer !== '') items.push({ question, answer });
    }
    this.push(items.length === 0 ? undefined : { type: 'faq', items });
  }

  private callout(element: Element): void {
    const named = classes(element)
      .find((name) => name.startsWith('quire-callout--'))
      ?.slice('quire-callout--'.length);
    const word = classes(element).join(' ');
    const variant: CalloutVariant =
      named === 'warning' || named === 'success' || named === 'error'
        ? named
        : /warn/.test(word)
          ? 'warning'
          : /danger|error/.test(word)
            ? 'error'
            : /success/.test(word)
              ? 'success'
              : 'info';
    const titleElement = children(element).find(
      (node): node is Element =>
        isElement(node) && (hasClass(node, 'quire-callout__title') || HEADING[node.tagName] !== undefined),
    );
    let title = titleElement === undefined ? '' : this.inline(children(titleElement));
    let body = this.paragraphs(children(element).filter((node) => node !== titleElement));
    if (body === '') [title, body] = ['', title];
    this.push(body === '' ? undefined : { type: 'callout', variant, ...(title === '' ? {} : { title }), body });
  }

  private ghostCallout(element: Element): void {
    const colour = classes(element)
      .find((name) => name.startsWith('kg-callout-card-'))
      ?.slice('kg-callout-card-'.length);
    const variant: CalloutVariant =
      colour === 'red' ? 'error' : colour === 'yellow' ? 'warning' : colour === 'green' ? 'success' : 'info';
    const emoji = descendants(element, (inner) => hasClass(inner, 'kg-callout-emoji'))[0];
    const text = descendants(element, (inner) => hasClass(inner, 'kg-callout-text'))[0];
    const lead = emoji === undefined ? '' : this.inline(children(emoji));
    const rest = this.paragraphs(
      text === undefined ? children(element).filter((node) => node !== emoji) : children(text),
    );
    const body = [lead, rest].filter((part) => part !== '').join(' ');
    this.push(body === '' ? undefined : { type: 'callout', variant, body });
  }

  private takeaways(element: Element): void {
    const items = descendants(element, (inner) => inner.tagName === 'li')
      .map((item) => this.inline(children(item)))
      .filter((item) => item !== '');
    for (let i = 0; i < items.length; i += 10) this.push({ type: 'key_takeaways', items: items.slice(i, i + 10) });
  }

  private cta(element: Element): void {
    const title = descendants(element, (inner) => hasClass(inner, 'quire-cta__title'))[0];
    const body = children(element).find(
      (node): node is Element => isElement(node) && node.tagName === 'p' && attr(node, 'class') === undefined,
    );
    const button = descendants(element, (inner) => hasClass(inner, 'quire-cta__button'))[0];
    const href = button === undefined ? '' : (attr(button, 'href') ?? '').trim();
    this.push({
      type: 'cta',
      title: title === undefined ? '' : this.inline(children(title)),
      body: body === undefined ? '' : this.inline(children(body)),
      linkUrl: safeUrl(href) === null ? '' : href,
      linkLabel: button === undefined ? '' : this.inline(children(button), true),
      variant: hasClass(element, 'quire-cta--outlined') ? 'outlined' : 'default',
    });
  }

  /** A WordPress or Ghost button: a CTA titled by its label (the page around it holds the rest). */
  private button(element: Element): void {
    const href = (attr(element, 'href') ?? '').trim();
    const label = this.inline(children(element), true);
    if (safeUrl(href) === null || label === '') {
      this.note('unsupported', 'a', element);
      return;
    }
    const outlined = classes(element).some((name) => name.includes('outline')) || hasClass(element, 'kg-btn-outline');
    this.push({
      type: 'cta',
      title: label,
      body: '',
      linkUrl: href,
      linkLabel: label,
      variant: outlined ? 'outlined' : 'default',
    });
  }

  /** A table has no block: each row a paragraph of its cells, noted as approximated. */
  private table(element: Element): void {
    this.note('approximated', 'table', element);
    for (const row of descendants(element, (inner) => inner.tagName === 'tr')) {
      const cells = children(row)
        .filter((node): node is Element => isElement(node) && (node.tagName === 'td' || node.tagName === 'th'))
        .map((cell) => this.paragraphs(children(cell)).replace(/\n\n/g, ' '))
        .filter((cell) => cell !== '');
      if (cells.length > 0) this.push({ type: 'paragraph', text: cells.join(' | ') });
    }
    const caption = descendants(element, (inner) => inner.tagName === 'caption')[0];
    if (caption !== undefined) {
      const text = this.inline(children(caption));
      if (text !== '') this.push({ type: 'paragraph', text });
    }
  }
}

/**
 * An HTML document or fragment (a page's body, an export's post, a clipboard's HTML) as blocks, and the report of
 * what did not convert as it was. Nothing of the input is run or fetched.
 */
export function htmlToBlocks(html: string, options: ConvertOptions = {}): ConversionResult {
  const document = parse(html);
  const root = document.childNodes.find(
    (node): node is Element => isElement(node as Node) && (node as Element).tagName === 'html',
  );
  const body = root?.childNodes.find((node): node is Element => isElement(node) && node.tagName === 'body');
  const converter = new HtmlConverter(options);
  if (body !== undefined) {
    for (const text of flattenDeep(body))
      converter.note('approximated', 'body', `nested too deep, read as text: ${text}`);
    converter.flow(children(body));
    converter.flush();
  }
  return {
    blocks: fitLimits(converter.blocks, converter.notes),
    report: { notes: converter.notes, images: converter.images },
  };
}
