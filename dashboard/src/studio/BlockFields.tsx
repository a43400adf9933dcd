import type { FieldsProps } from './block-fields';
import { CalloutFields, CtaFields } from './CalloutBlockFields';
import { FaqFields, TakeawaysFields } from './ItemBlockFields';
import { ImageFields, TweetFields, VideoFields } from './MediaBlockFields';

/**
 * A card's own fields, by its type; each group of types lives in a file of its own. Text blocks, code and the
 * divider are typed into the document itself (document/).
 */
export function BlockFields({ block, errors = {}, workspaceId, onChange }: FieldsProps) {
  switch (block.type) {
    case 'paragraph':
    case 'heading':
    case 'list':
    case 'code':
    case 'quote':
    case 'divider':
      return null;
    case 'image':
      return <ImageFields block={block} errors={errors} workspaceId={workspaceId} onChange={onChange} />;
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
