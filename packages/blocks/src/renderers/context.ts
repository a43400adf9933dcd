import { inlineHtml } from '../inline.js';

/** What every block renderer reads besides its block: the options, resolved once per call of renderBlocks. */
export class RenderContext {
  constructor(
    readonly base: URL | undefined,
    readonly sizes: string,
    readonly idPrefix: string,
    readonly keyTakeawaysTitle: string,
  ) {}

  /** A text field as HTML phrasing content; `links: false` inside a link or a summary. */
  inline(markdown: string, links = true): string {
    return inlineHtml(markdown, { links, base: this.base });
  }

  /** Text that is blank renders nothing: an optional field left empty by an editor. */
  isBlank(text: string | undefined): text is undefined {
    return text === undefined || text.trim() === '';
  }
}
