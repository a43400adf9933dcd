import { useState } from 'react';
import { MediaPicker } from '../media/MediaPicker';
import { changed, optional, type TypedFieldsProps } from './block-fields';
import { InlineField } from './document/InlineField';
import { PlainField } from './TextFields';

export function ImageFields({
  block,
  errors,
  workspaceId,
  onChange,
}: TypedFieldsProps<'image'> & { workspaceId: string }) {
  const [picking, setPicking] = useState(false);
  return (
    <>
      <div className="image-pick">
        {block.mediaId && block.url ? (
          <img src={block.url} alt="" className="image-pick-preview" />
        ) : block.mediaId ? (
          <p className="hint">The image's file was deleted; choose another.</p>
        ) : null}
        <button type="button" onClick={() => setPicking(true)}>
          {block.mediaId ? 'Change image' : 'Choose image'}
        </button>
        {errors.mediaId && <p className="field-error">{errors.mediaId}</p>}
      </div>
      <PlainField
        label="Alt text"
        value={block.alt ?? ''}
        error={errors.alt}
        hint="What the image shows, for people who cannot see it."
        onChange={(value) => onChange(optional(block, 'alt', value))}
      />
      <InlineField
        multiline={false}
        label="Caption (optional)"
        value={block.caption ?? ''}
        error={errors.caption}
        onChange={(value) => onChange(optional(block, 'caption', value))}
      />
      <MediaPicker
        workspaceId={workspaceId}
        open={picking}
        onClose={() => setPicking(false)}
        onPick={(media) => {
          setPicking(false);
          const next = { ...block, mediaId: media.id, url: media.url };
          if (!block.alt && media.alt) next.alt = media.alt;
          onChange(next);
        }}
      />
    </>
  );
}

export function VideoFields({ block, errors, onChange }: TypedFieldsProps<'video_embed'>) {
  const set = (changes: Record<string, unknown>) => onChange(changed(block, changes));
  return (
    <>
      <PlainField
        label="Video address"
        type="url"
        value={block.url}
        error={errors.url}
        hint="A link to the video, such as https://www.youtube.com/watch?v=…"
        onChange={(url) => set({ url })}
      />
      <InlineField
        multiline={false}
        label="Video title (optional)"
        value={block.title ?? ''}
        error={errors.title}
        onChange={(value) => onChange(optional(block, 'title', value))}
      />
    </>
  );
}

export function TweetFields({ block, errors, onChange }: TypedFieldsProps<'tweet_embed'>) {
  return (
    <PlainField
      label="Post address"
      type="url"
      value={block.url}
      error={errors.url}
      hint="A link to the social media post."
      onChange={(url) => onChange(changed(block, { url }))}
    />
  );
}
