import { useEffect, useId, useState, type FormEvent } from 'react';
import { api, describeError, ws, call, client } from '../api';
import { keys, useApi, useWrite } from '../queries';
import { useCopy } from '../components/copy';
import { ConfirmDialog } from '../components/Dialog';
import { Field } from '../components/Field';
import { ErrorMessage, FormAlert, Loading } from '../components/Status';
import type { Media } from '../types';
import type { FocalPoint } from '../../../src/modules/media/media.schemas.js';
import { FocalPointField } from './FocalPoint';
import { isImage, thumbnailUrl } from './thumbnail';

/** What GET …/media/{id}/usage answers. */
interface Usage {
  posts: { total: number; items: Array<{ id: string; title: string }> };
  pages: { total: number; items: Array<{ id: string; title: string }> };
  authors: { total: number; items: Array<{ id: string; title: string }> };
  logo: boolean;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The uses in a sentence, for the deletion warning: "2 posts (A, B), 1 author (Ada) and the site logo". */
export function usageWords(usage: Usage): string | null {
  const parts: string[] = [];
  const named = (list: Usage['posts'], one: string, many: string) => {
    if (list.total === 0) return;
    const names = list.items.slice(0, 5).map((item) => `“${item.title}”`);
    const more = list.total > names.length ? ` and ${list.total - names.length} more` : '';
    parts.push(`${plural(list.total, one, many)} (${names.join(', ')}${more})`);
  };
  named(usage.posts, 'post', 'posts');
  named(usage.pages, 'page', 'pages');
  named(usage.authors, 'author', 'authors');
  if (usage.logo) parts.push('the site logo');
  if (parts.length === 0) return null;
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

interface Props {
  workspaceId: string;
  media: Media;
  onChanged(media: Media): void;
  onDeleted(id: string): void;
}

export function MediaDetails({ workspaceId, media, onChanged, onDeleted }: Props) {
  const [alt, setAlt] = useState(media.alt ?? '');
  const [caption, setCaption] = useState(media.caption ?? '');
  const [focalPoint, setFocalPoint] = useState<FocalPoint | null>(media.focalPoint ?? null);
  const [saved, setSaved] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const urlId = useId();
  const { copy, status } = useCopy(media.url, urlId);
  const path = ws(workspaceId, `/media/${media.id}`);
  const usage = useApi(keys.item(workspaceId, 'media', media.id, 'usage'), () =>
    call(client.GET('/workspaces/{workspaceId}/media/{id}/usage', { params: { path: { workspaceId, id: media.id } } })),
  );
  const save = useWrite(
    (body: { alt: string | null; caption: string | null; focalPoint?: FocalPoint | null }) =>
      call(
        client.PATCH('/workspaces/{workspaceId}/media/{id}', { params: { path: { workspaceId, id: media.id } }, body }),
      ),
    [keys.resource(workspaceId, 'media')],
  );
  const remove = useWrite(() => api.delete<Media>(path), [keys.resource(workspaceId, 'media')]);

  useEffect(() => {
    setAlt(media.alt ?? '');
    setCaption(media.caption ?? '');
    setFocalPoint(media.focalPoint ?? null);
    setSaved(false);
  }, [media.id]);

  const croppable = Boolean(media.srcset && media.width && media.height);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const updated = await save.execute({
      alt: alt.trim() || null,
      caption: caption.trim() || null,
      // Only images the server crops have one to set (raster images with resized copies).
      ...(croppable ? { focalPoint } : {}),
    });
    if (updated) {
      setSaved(true);
      onChanged(updated);
    }
  };

  const uses = usage.data ? usageWords(usage.data) : null;
  return (
    <section className="media-details" aria-labelledby={`${urlId}-title`}>
      <h2 id={`${urlId}-title`}>{media.filename}</h2>
      {isImage(media) && !croppable && <img src={thumbnailUrl(media, 640)} alt="" className="media-preview" />}
      <p className="hint">
        {media.mimeType}
        {media.width && media.height ? ` · ${media.width} × ${media.height} pixels` : ''}
      </p>
      <form onSubmit={submit} noValidate>
        {croppable && (
          <FocalPointField
            src={thumbnailUrl(media, 640)}
            width={media.width!}
            height={media.height!}
            value={focalPoint}
            onChange={setFocalPoint}
          />
        )}
        <Field
          label="Alt text"
          hint="What the image shows, for people who cannot see it."
          value={alt}
          maxLength={1000}
          onChange={(event) => setAlt(event.target.value)}
        />
        <Field label="Caption" value={caption} maxLength={2000} onChange={(event) => setCaption(event.target.value)} />
        <FormAlert summary={save.error ? describeError(save.error) : null} />
        <div className="actions">
          <button type="submit" className="button-primary" disabled={save.pending}>
            {save.pending ? 'Saving…' : 'Save'}
          </button>
          <span role="status">{saved ? 'Saved.' : ''}</span>
        </div>
      </form>
      <div className="field">
        <label htmlFor={urlId}>Address</label>
        <div className="secret-row">
          <input id={urlId} readOnly value={media.url} />
          <button type="button" onClick={copy}>
            Copy URL
          </button>
        </div>
        <p role="status" className="hint">
          {status}
        </p>
      </div>
      <h3>Where it is used</h3>
      {usage.state === 'loading' && <Loading label="Looking for uses…" />}
      {usage.state === 'error' && <ErrorMessage error={usage.error} onRetry={usage.reload} />}
      {usage.data && <p>{uses ? `Used by ${uses}.` : 'Not used anywhere yet.'}</p>}
      <button type="button" className="button-danger-quiet" onClick={() => setConfirming(true)}>
        Delete
      </button>
      {confirming && (
        <ConfirmDialog
          title={`Delete ${media.filename}?`}
          confirmLabel="Delete"
          danger
          pending={remove.pending}
          error={remove.error ? <ErrorMessage error={remove.error} /> : null}
          onCancel={() => setConfirming(false)}
          onConfirm={async () => {
            const removed = await remove.execute();
            if (removed) {
              setConfirming(false);
              onDeleted(media.id);
            }
          }}
        >
          {uses ? (
            <p>
              It is used by {uses}. Deleting it removes it from there: featured images, avatars and the logo are
              cleared, and images in the text show nothing. This cannot be undone.
            </p>
          ) : (
            <p>It is not used anywhere. This cannot be undone.</p>
          )}
        </ConfirmDialog>
      )}
    </section>
  );
}
