import { useMemo, type MouseEvent } from 'react';
import { headingIds, renderBlocks, type RenderOptions } from '@quire/blocks';
import type { Block } from '../types';

/** What the dashboard shows where an image's media is gone (or, in the studio, not chosen yet). */
const IMAGE_MISSING = '<div class="image-missing">Image missing: its media was deleted.</div>';

/** The site's address as @quire/blocks' linkBase, when it is one; else relative links stay relative. */
function linkBaseOf(siteUrl: string | null | undefined): string | undefined {
  if (!siteUrl) return undefined;
  try {
    const url = new URL(siteUrl.endsWith('/') ? siteUrl : `${siteUrl}/`);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A body as a site would show it: @quire/blocks' HTML, every one of the 13 block types. Heading ids carry a
 * prefix (a heading id an author chose must not collide with the dashboard's own ids), and a missing image shows
 * a note instead of nothing. Each block is rendered on its own, with the ids derived over the whole body first.
 */
export function bodyHtml(blocks: readonly Block[], siteUrl?: string | null): string {
  const ids = headingIds(blocks);
  const options: RenderOptions = { idPrefix: 'heading-', linkBase: linkBaseOf(siteUrl) };
  let heading = 0;
  return blocks
    .map((block) => {
      if (block.type === 'image' && !block.url) return IMAGE_MISSING;
      if (block.type === 'heading') return renderBlocks([{ ...block, id: ids[heading++]! }], options);
      // The placeholder is an inline style, which the dashboard's Content-Security-Policy refuses.
      if (block.type === 'image') return renderBlocks([{ ...block, placeholder: null }], options);
      return renderBlocks([block], options);
    })
    .filter((html) => html !== '')
    .join('\n');
}

/**
 * Links in a body lead to the site or elsewhere, never into the dashboard: a plain click opens an absolute one
 * in a new tab (the editor stays), and does nothing on a link into the site whose address is not known here.
 */
function openLinksElsewhere(event: MouseEvent<HTMLDivElement>) {
  const link = (event.target as Element).closest('a[href]');
  if (!link || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  const href = link.getAttribute('href')!;
  if (/^(https?|mailto):/i.test(href)) window.open(href, '_blank', 'noopener,noreferrer');
}

/** A read-only rendering of a body, by the package every site may use. */
export function BlockList({ blocks, siteUrl }: { blocks: Block[]; siteUrl?: string | null }) {
  const html = useMemo(() => bodyHtml(blocks, siteUrl), [blocks, siteUrl]);
  if (blocks.length === 0) return <p className="empty">This body has no blocks.</p>;
  // Safe by construction (docs/blocks.md): the renderer escapes every text and attribute and writes only
  // allow-listed elements and URLs, so its HTML needs no second sanitizer here.
  return <div className="blocks" onClick={openLinksElsewhere} dangerouslySetInnerHTML={{ __html: html }} />;
}
