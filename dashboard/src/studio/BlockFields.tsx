import type { FieldsProps } from './block-fields';
import { CalloutFields, CtaFields } from './CalloutBlockFields';
import { FaqFields, TakeawaysFields } from './ItemBlockFields';
import { ImageFields, TweetFields, VideoFields } from './MediaBlockFields';
import { ParagraphField } from './ParagraphField';
import { CodeFields, HeadingFields, ListFields, QuoteFields } from './TextBlockFields';

/** A block's own fields, by its type; each group of types lives in a file of its own. */
export function BlockFields({ block, errors = {}, workspaceId, onChange, onReplace }: FieldsProps) {
  switch (block.type) {
    case 'paragraph':
      return (
        <ParagraphField
          text={block.text}
          error={errors.text}
          onChange={(text) => onChange({ ...block, text })}
          onReplace={onReplace}
        />
      );
    case 'heading':
      return <HeadingFields block={block} errors={errors} onChange={onChange} />;
    case 'list':
      return <ListFields block={block} errors={errors} onChange={onChange} />;
    case 'image':
      return <ImageFields block={block} errors={errors} workspaceId={workspaceId} onChange={onChange} />;
    case 'code':
      return <CodeFields block={block} errors={errors} onChange={onChange} />;
    case 'quote':
      return <QuoteFields block={block} errors={errors} onChange={onChange} />;
    case 'divider':
      return <p className="hint">A line between sections. It has nothing to fill in.</p>;
    case 'callout':
      return <CalloutFields block={block} errors={errors} onChange={onChange} />;
    case 'video_embed':
      return <VideoFields block={block} errors={errors} onChange={onChange} />;
    case 'tweet_embed':
      return <TweetFields block={block} errors={errors} onChange={onChange} />;
    case 'faq':
      return <FaqFields block={block} errors={errors} onChange={onChange} />;
    case 'cta':
      return <CtaFields block={block} errors={errors} onChange={onChange} />;
    case 'key_takeaways':
      return <TakeawaysFields block={block} errors={errors} onChange={onChange} />;
  }
}
