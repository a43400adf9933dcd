import { htmlToBlocks } from '@quire/blocks';
import { parseFragment, serialize, type DefaultTreeAdapterMap } from 'parse5';
import { attachment, attachmentFigure, embedHtml, note, type BodyContext } from './body-context.js';
import { joinInner, parseBlocks, type ParsedBlock } from './gutenberg.js';

/*
 * Block editor content as the HTML the converter reads. Most blocks saved their HTML beside their delimiters and
 * convert from it as they are; the ones below saved something the converter cannot read as meant (an embed's bare
 * URL, a FAQ plugin's markup, a gallery of ids) and are written afresh from their attributes.
 */

type Node = DefaultTreeAdapterMap['childNode'];
type Element = DefaultTreeAdapterMap['element'];

/** Core blocks whose saved HTML the converter reads (or whose lack of content is meant): never noted. */
const CORE = new Set(
  (
    'paragraph heading list list-item quote pullquote image separator spacer code preformatted verse group row ' +
    'stack columns column cover media-text buttons button details html table more nextpage freeform audio video ' +
    'file footnotes'
  )
    .split(' ')
    .map((name) => `core/${name}`),
);

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

export function blocksHtml(content: string, context: BodyContext): string {
  return parseBlocks(content)
    .map((parsed) => blockHtml(parsed, context))
    .join('\n');
}

function blockHtml(parsed: ParsedBlock, context: BodyContext): string {
  const inner = () => joinInner(parsed, (child) => blockHtml(child, context));
  const name = parsed.name;
  if (name === null) return parsed.innerContent.join('');
  if (name === 'core/embed' || name.startsWith('core-embed/')) {
    const url = text(parsed.attrs.url) || textOf(inner());
    return embedHtml(context, url, `wp:${name.replace(/^core\//, '')}`);
  }
  if (name === 'core/gallery') return galleryHtml(parsed, context, inner);
  if (name === 'yoast/faq-block') return yoastFaq(parsed, inner());
  if (name === 'rank-math/faq-block') return rankMathFaq(parsed, inner());
  const html = inner();
  if (!CORE.has(name)) {
    // A block this reader does not know: its saved HTML, when the converter finds anything in it.
    const trial = htmlToBlocks(html);
    if (trial.blocks.length === 0 && trial.report.images.length === 0)
      note(context, 'unsupported', `wp:${name.replace(/^core\//, '')}`, html.trim() || JSON.stringify(parsed.attrs));
  }
  return html;
}

/** A gallery: its image blocks one by one (each with its caption), or the images its ids name (older galleries). */
function galleryHtml(parsed: ParsedBlock, context: BodyContext, inner: () => string): string {
  if (parsed.innerBlocks.length > 0) return parsed.innerBlocks.map((child) => blockHtml(child, context)).join('');
  const ids = Array.isArray(parsed.attrs.ids) ? parsed.attrs.ids.map(String) : [];
  const figures = ids.flatMap((id) => {
    const found = attachment(context, id);
    return found === undefined || found.url === '' ? [] : [attachmentFigure(found)];
  });
  return figures.length === ids.length && ids.length > 0 ? figures.join('') : inner();
}

/** A FAQ's questions and answers as disclosures, which the converter makes one FAQ block of. */
function faqHtml(items: Array<{ question: string; answer: string }>): string {
  return items
    .filter((item) => item.question.trim() !== '' || item.answer.trim() !== '')
    .map((item) => `<details><summary>${item.question}</summary><div>${item.answer}</div></details>`)
    .join('');
}

/** Yoast's FAQ: `questions[]` with `jsonQuestion` and `jsonAnswer` (HTML), else its saved markup. */
function yoastFaq(parsed: ParsedBlock, html: string): string {
  const questions = Array.isArray(parsed.attrs.questions) ? (parsed.attrs.questions as unknown[]) : [];
  const items = questions.flatMap((entry) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const record = entry as Record<string, unknown>;
    return [{ question: text(record.jsonQuestion), answer: text(record.jsonAnswer) }];
  });
  if (items.some((item) => item.question !== '')) return faqHtml(items);
  return faqHtml(faqFromMarkup(html, 'schema-faq-section', 'schema-faq-question', 'schema-faq-answer'));
}

/** Rank Math's FAQ: `questions[]` with `title` and `content` (HTML) and `visible`, else its saved markup. */
function rankMathFaq(parsed: ParsedBlock, html: string): string {
  const questions = Array.isArray(parsed.attrs.questions) ? (parsed.attrs.questions as unknown[]) : [];
  const items = questions.flatMap((entry) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const record = entry as Record<string, unknown>;
    if (record.visible === false) return [];
    return [{ question: text(record.title), answer: text(record.content) }];
  });
  if (items.some((item) => item.question !== '')) return faqHtml(items);
  return faqHtml(faqFromMarkup(html, 'rank-math-list-item', 'rank-math-question', 'rank-math-answer'));
}

function faqFromMarkup(html: string, section: string, question: string, answer: string) {
  const items: Array<{ question: string; answer: string }> = [];
  const hasClass = (element: Element, name: string) =>
    (element.attrs.find((attr) => attr.name === 'class')?.value ?? '').split(/\s+/).includes(name);
  const find = (nodes: Node[], name: string): Element[] =>
    nodes.flatMap((node) =>
      'tagName' in node ? [...(hasClass(node, name) ? [node] : []), ...find(node.childNodes as Node[], name)] : [],
    );
  for (const part of find(parseFragment(html).childNodes as Node[], section)) {
    const q = find([part], question)[0];
    const a = find([part], answer)[0];
    items.push({ question: q === undefined ? '' : serialize(q), answer: a === undefined ? '' : serialize(a) });
  }
  return items;
}

/** The text of an HTML fragment (an embed's saved URL). */
function textOf(html: string): string {
  const out: string[] = [];
  const visit = (nodes: Node[]) => {
    for (const node of nodes) {
      if (node.nodeName === '#text') out.push((node as DefaultTreeAdapterMap['textNode']).value);
      else if ('tagName' in node && node.tagName !== 'figcaption') visit(node.childNodes as Node[]);
    }
  };
  visit(parseFragment(html).childNodes as Node[]);
  return out.join(' ').trim().split(/\s+/)[0] ?? '';
}
