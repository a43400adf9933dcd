import { postEmbedOf, videoEmbedOf, type ConversionNote } from '@quire/blocks';
import type { Edit } from './edits.js';
import { excerpt } from './text.js';
import { closingTag, Marks, nextTag, type Range, type TemplateTag } from './template-tags.js';

/*
 * Template tags made into what the block converter understands: a video or post link alone in a paragraph
 * (an embed), a figure in HTML (an image with its caption), a highlight block as fenced code. The others are
 * reported (`unsupported`, the tag's name) and taken out of the text; the content between a block tag and its
 * closing one stays. Liquid's `raw` keeps its content as it stands; a comment goes with its content.
 */

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char]!);

/** An embed's URL as a paragraph of its own: an autolink, which the converter makes an embed block. */
const alone = (url: string) => `\n\n<${url}>\n\n`;

function video(tag: TemplateTag, provider: 'youtube' | 'vimeo'): string | null {
  const id = tag.named.id ?? tag.positional[0] ?? '';
  const url = /^https?:\/\//i.test(id)
    ? id
    : provider === 'youtube'
      ? `https://www.youtube.com/watch?v=${encodeURIComponent(id)}`
      : `https://vimeo.com/${encodeURIComponent(id)}`;
  return videoEmbedOf(url) === null ? null : alone(url);
}

function post(tag: TemplateTag): string | null {
  const id = tag.named.id ?? tag.positional[0] ?? '';
  const user = tag.named.user ?? 'i';
  const url = /^https?:\/\//i.test(id)
    ? id
    : `https://x.com/${encodeURIComponent(user)}/status/${encodeURIComponent(id)}`;
  return postEmbedOf(url) === null ? null : alone(url);
}

function figure(tag: TemplateTag): string | null {
  const src = tag.named.src ?? tag.positional[0];
  if (src === undefined || src === '') return null;
  const caption = tag.named.caption ?? tag.named.title ?? '';
  const img = `<img src="${escapeHtml(src)}" alt="${escapeHtml(tag.named.alt ?? '')}">`;
  return `\n\n<figure>${img}${caption === '' ? '' : `<figcaption>${escapeHtml(caption)}</figcaption>`}</figure>\n\n`;
}

/** A fenced code block holding `code`, its fence longer than any run of backticks inside. */
function fenced(code: string, language: string): string {
  const runs = code.match(/`{3,}/g) ?? [];
  const fence = '`'.repeat(Math.max(2, ...runs.map((run) => run.length)) + 1);
  return `\n\n${fence}${language.replace(/[^\w+#.-]/g, '')}\n${code.replace(/^\n+|\n+$/g, '')}\n${fence}\n\n`;
}

/** What a single tag becomes; null when it is not one the converter can take. */
function replacement(tag: TemplateTag): string | null {
  if (tag.literal !== undefined) return tag.literal;
  if (tag.kind === 'output') {
    // The site's base address, which prefixes the site's own paths (`{{ site.baseurl }}/assets/x.png`).
    if (/^site\.(?:baseurl|url)$/.test(tag.name)) return '';
    const filtered = /^(["'])(.*)\1\s*\|\s*(?:relative_url|absolute_url)$/.exec(tag.name);
    return filtered === null ? null : filtered[2]!;
  }
  switch (tag.name.toLowerCase()) {
    case 'youtube':
      return video(tag, 'youtube');
    case 'vimeo':
      return video(tag, 'vimeo');
    case 'tweet':
    case 'twitter':
    case 'x':
      return post(tag);
    case 'figure':
      return tag.kind === 'shortcode' ? figure(tag) : null;
    default:
      return null;
  }
}

/** The edits that expand the template tags of `text`, none starting inside `outside` (code, removed nodes). */
export function expandTemplateTags(text: string, outside: readonly Range[], notes: ConversionNote[]): Edit[] {
  const edits: Edit[] = [];
  const report = (tag: TemplateTag, element: string) =>
    notes.push({ kind: 'unsupported', element, excerpt: excerpt(tag.raw) });
  const marks = new Marks(text);
  let at = 0;
  for (let tag = nextTag(text, at, outside, marks); tag !== null; tag = nextTag(text, at, outside, marks)) {
    at = tag.end;
    const name = tag.name.toLowerCase();
    if (tag.closing || (tag.kind === 'liquid' && name.startsWith('end'))) {
      // The end of a block tag whose opening was reported: its content stays.
      edits.push({ start: tag.start, end: tag.end, text: '' });
      continue;
    }
    if (tag.kind !== 'output' && ['raw', 'comment', 'highlight'].includes(name) && tag.literal === undefined) {
      const close = closingTag(text, tag, marks);
      const end = close?.end ?? text.length;
      const inner = text.slice(tag.end, close?.start ?? text.length);
      if (name === 'raw') {
        edits.push({ start: tag.start, end: tag.end, text: '' });
        if (close !== null) edits.push({ start: close.start, end: close.end, text: '' });
      } else
        edits.push({ start: tag.start, end, text: name === 'comment' ? '' : fenced(inner, tag.positional[0] ?? '') });
      at = end;
      continue;
    }
    const made = replacement(tag);
    if (made === null) report(tag, tag.kind === 'output' ? 'liquid-output' : tag.name || tag.kind);
    edits.push({ start: tag.start, end: tag.end, text: made ?? '' });
  }
  return edits;
}
