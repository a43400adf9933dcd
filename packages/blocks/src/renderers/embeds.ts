import { element, escapeHtml, type Attribute } from '../escape.js';
import { postEmbedOf, videoEmbedOf } from '../embeds.js';
import type { TweetEmbedBlock, VideoEmbedBlock } from '../types.js';
import { safeUrl } from '../url.js';
import type { RenderContext } from './context.js';

/**
 * An embed loads nothing from elsewhere until the reader asks: a figure with a plain link to the video or post,
 * and data attributes enhanceEmbeds (enhance.ts) reads to swap in the player on a click.
 */
function figure(kind: string, url: string, text: string, data: Attribute[], context: RenderContext): string {
  const href = safeUrl(url, context.base);
  const inner = href === null ? text : element('a', [['href', href]], text);
  return element('figure', [['class', `quire-embed quire-embed--${kind}`], ...data], inner);
}

export function videoEmbed(block: VideoEmbedBlock, context: RenderContext): string {
  const video = videoEmbedOf(block.url);
  const text = context.isBlank(block.title) ? escapeHtml(block.url) : context.inline(block.title, false);
  return figure(
    'video',
    block.url,
    text,
    video
      ? [
          ['data-provider', video.provider],
          ['data-video-id', video.id],
          ['data-embed-url', video.embedUrl],
        ]
      : [],
    context,
  );
}

export function tweetEmbed(block: TweetEmbedBlock, context: RenderContext): string {
  const post = postEmbedOf(block.url);
  return figure(
    'post',
    block.url,
    escapeHtml(block.url),
    post
      ? [
          ['data-provider', post.provider],
          ['data-post-id', post.id],
        ]
      : [],
    context,
  );
}
