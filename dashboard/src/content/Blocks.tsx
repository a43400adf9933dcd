import type { ReactNode } from 'react';
import type { Block } from '../types';
import { InlineText, safeHref } from './Inline';

/** A read-only rendering of a body: every one of the 13 block types, none of it as raw HTML. */
export function BlockList({ blocks }: { blocks: Block[] }) {
  if (blocks.length === 0) return <p className="empty">This body has no blocks.</p>;
  return (
    <div className="blocks">
      {blocks.map((block, index) => (
        <BlockView key={index} block={block} />
      ))}
    </div>
  );
}

function ExternalLink({ url, children }: { url: string; children: ReactNode }) {
  const href = safeHref(url);
  if (!href) return <span className="mono">{url}</span>;
  return (
    <a href={href} rel="noopener noreferrer nofollow" target="_blank">
      {children}
    </a>
  );
}

export function BlockView({ block }: { block: Block }) {
  switch (block.type) {
    case 'paragraph':
      return (
        <p>
          <InlineText text={block.text} />
        </p>
      );
    case 'heading': {
      const Tag = `h${block.level}` as 'h2' | 'h3' | 'h4';
      // Prefixed: a heading id chosen by an author must not collide with the dashboard's own ids.
      return (
        <Tag id={`heading-${block.id}`} className="block-heading">
          <InlineText text={block.text} />
        </Tag>
      );
    }
    case 'list': {
      const items = block.items.map((item, i) => (
        <li key={i}>
          <InlineText text={item} />
        </li>
      ));
      return block.style === 'ordered' ? <ol>{items}</ol> : <ul>{items}</ul>;
    }
    case 'image':
      return (
        <figure className="block-image">
          {block.url ? (
            <img src={block.url} alt={block.alt ?? ''} loading="lazy" />
          ) : (
            <div className="image-missing">Image missing: its media was deleted.</div>
          )}
          {block.caption && <figcaption>{block.caption}</figcaption>}
        </figure>
      );
    case 'code':
      return (
        <figure className="block-code">
          {block.language && <figcaption className="code-language">{block.language}</figcaption>}
          <pre tabIndex={0} aria-label={`Code${block.language ? ` (${block.language})` : ''}`}>
            <code>{block.code}</code>
          </pre>
        </figure>
      );
    case 'quote':
      return (
        <figure className="block-quote">
          <blockquote>
            <p>
              <InlineText text={block.text} />
            </p>
          </blockquote>
          {block.attribution && (
            <figcaption>
              — <InlineText text={block.attribution} />
            </figcaption>
          )}
        </figure>
      );
    case 'divider':
      return <hr />;
    case 'callout':
      return (
        <aside className={`callout callout-${block.variant}`} aria-label={`${block.variant} callout`}>
          {block.title && (
            <p className="callout-title">
              <InlineText text={block.title} />
            </p>
          )}
          <p>
            <InlineText text={block.body} />
          </p>
        </aside>
      );
    case 'video_embed':
      return (
        <p className="embed">
          <span className="embed-kind">Video</span>{' '}
          <ExternalLink url={block.url}>{block.title || block.url}</ExternalLink>
        </p>
      );
    case 'tweet_embed':
      return (
        <p className="embed">
          <span className="embed-kind">Post</span> <ExternalLink url={block.url}>{block.url}</ExternalLink>
        </p>
      );
    case 'faq':
      return (
        <div className="faq">
          {block.items.map((item, i) => (
            <details key={i}>
              <summary>{item.question}</summary>
              <p>{item.answer}</p>
            </details>
          ))}
        </div>
      );
    case 'cta':
      return (
        <div className={`cta cta-${block.variant}`}>
          <p className="cta-title">{block.title}</p>
          <p>{block.body}</p>
          <ExternalLink url={block.linkUrl}>{block.linkLabel}</ExternalLink>
        </div>
      );
    case 'key_takeaways':
      return (
        <aside className="takeaways" aria-label="Key takeaways">
          <p className="takeaways-title">Key takeaways</p>
          <ul>
            {block.items.map((item, i) => (
              <li key={i}>
                <InlineText text={item} />
              </li>
            ))}
          </ul>
        </aside>
      );
    default:
      return <p className="hint">An unknown block type.</p>;
  }
}
