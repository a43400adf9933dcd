/*
 * The optional browser half of the video embeds: renderBlocks writes a link and the player's address
 * (data-embed-url); enhanceEmbeds turns a click on that link into the player, so nothing is loaded from YouTube or
 * Vimeo before the reader asks. The package names no DOM types (it runs on servers too): the little of the DOM
 * used here is described below, and a Document or an Element fits the root.
 */

interface ClickEvent {
  button: number;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  preventDefault(): void;
}

interface Node {
  textContent: string | null;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  querySelector(selectors: string): Node | null;
  addEventListener(type: 'click', listener: (event: ClickEvent) => void): void;
  replaceWith(node: Node): void;
  focus(): void;
  ownerDocument: { createElement(tagName: 'iframe'): Node };
}

/** Players enhanceEmbeds will load: the addresses renderBlocks writes, and nothing else a page may hold. */
const PLAYERS =
  /^https:\/\/(?:www\.youtube-nocookie\.com\/embed\/[A-Za-z0-9_-]{11}|player\.vimeo\.com\/video\/\d+)(?:\?[^"'<>\s]*)?$/;

/** Started at once (the reader asked for it) by adding the player's own autoplay parameter. */
function withAutoplay(url: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}autoplay=1`;
}

function play(figure: Node, link: Node, embedUrl: string): void {
  const frame = link.ownerDocument.createElement('iframe');
  frame.setAttribute('src', withAutoplay(embedUrl));
  frame.setAttribute('title', link.textContent ?? 'Video');
  frame.setAttribute('allow', 'autoplay; encrypted-media; fullscreen; picture-in-picture');
  frame.setAttribute('allowfullscreen', '');
  // YouTube's player refuses to play for a page that sends no referrer.
  frame.setAttribute('referrerpolicy', 'strict-origin-when-cross-origin');
  frame.setAttribute('class', 'quire-embed__player');
  frame.setAttribute('style', 'width:100%;aspect-ratio:16/9;border:0');
  link.replaceWith(frame);
  figure.setAttribute('data-embed-state', 'playing');
  frame.focus();
}

/**
 * Makes every video embed under `root` (a document or an element holding renderBlocks' HTML) a player on click:
 * the link is replaced by the provider's iframe, its address the figure's `data-embed-url` (YouTube's
 * privacy-enhanced host, Vimeo's player without tracking). A click with a modifier key or another button follows
 * the link as usual. Calling it again (after more HTML was added) binds only the embeds not yet bound; it
 * returns how many it bound.
 */
export function enhanceEmbeds(root: { querySelectorAll(selectors: string): ArrayLike<unknown> }): number {
  const figures = root.querySelectorAll('figure.quire-embed[data-embed-url]');
  let bound = 0;
  for (let i = 0; i < figures.length; i += 1) {
    const figure = figures[i] as Node;
    const embedUrl = figure.getAttribute('data-embed-url') ?? '';
    const link = figure.querySelector('a[href]');
    if (link === null || figure.getAttribute('data-embed-state') !== null || !PLAYERS.test(embedUrl)) continue;
    figure.setAttribute('data-embed-state', 'ready');
    link.addEventListener('click', (event) => {
      if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      play(figure, link, embedUrl);
    });
    bound += 1;
  }
  return bound;
}
