import { useEffect, useState, type ChangeEvent } from 'react';
import { call, client } from '../api';
import { keys, useApi } from '../queries';
import { Dialog } from '../components/Dialog';
import { Empty, ErrorMessage, Loading } from '../components/Status';
import type { Media } from '../types';
import { MediaThumb } from './MediaThumb';
import { isImage, mediaName } from './thumbnail';
import { uploadErrorWords, uploadMedia } from './upload';
import './media.css';

/** The external API's media object, as the picker hands it over. */
export type MediaItem = Media;

export interface MediaPickerProps {
  workspaceId: string;
  open: boolean;
  onClose(): void;
  onPick(media: MediaItem): void;
  accept?: 'image' | 'any';
}

const PAGE_SIZE = 24;

/** A modal to choose one of the workspace's media, or upload one and choose it at once. */
export function MediaPicker({ open, ...props }: MediaPickerProps) {
  return open ? <PickerDialog {...props} /> : null;
}

function PickerDialog({ workspaceId, onClose, onPick, accept = 'image' }: Omit<MediaPickerProps, 'open'>) {
  const [query, setQuery] = useState('');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const [progress, setProgress] = useState<number | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);

  // Searching as people type, without a request per keystroke.
  useEffect(() => {
    const timer = window.setTimeout(() => {
      setQ(query.trim());
      setPage(1);
    }, 250);
    return () => window.clearTimeout(timer);
  }, [query]);

  const media = useApi(keys.list(workspaceId, 'media', { page, q, accept }), () =>
    call(
      client.GET('/workspaces/{workspaceId}/media', {
        params: {
          path: { workspaceId },
          query: { page, pageSize: PAGE_SIZE, q, mimeTypePrefix: accept === 'image' ? 'image/' : undefined },
        },
      }),
    ),
  );

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setUploadError(null);
    setProgress(0);
    try {
      const item = await uploadMedia(workspaceId, file, { onProgress: setProgress });
      if (accept === 'image' && !isImage(item)) {
        setUploadError('That file was uploaded, but it is not an image. Choose an image file.');
        media.reload();
        return;
      }
      onPick(item);
    } catch (error) {
      setUploadError(uploadErrorWords(error));
    } finally {
      setProgress(null);
    }
  };

  const title = accept === 'image' ? 'Choose an image' : 'Choose a file';
  const items = media.data?.data ?? [];
  return (
    <Dialog title={title} onClose={onClose}>
      <div className="picker-tools">
        <label className="picker-search">
          <span>Search</span>
          <input type="search" value={query} onChange={(event) => setQuery(event.target.value)} data-autofocus />
        </label>
        <label className="file-button">
          Upload
          <input
            type="file"
            className="visually-hidden"
            accept={accept === 'image' ? 'image/*' : undefined}
            disabled={progress !== null}
            onChange={upload}
          />
        </label>
      </div>
      {progress !== null && (
        <progress className="upload-progress" max={1} value={progress} aria-label="Uploading">
          {Math.round(progress * 100)}%
        </progress>
      )}
      {uploadError && (
        <div className="notice notice-error" role="alert">
          <p>{uploadError}</p>
        </div>
      )}
      {media.state === 'error' && <ErrorMessage error={media.error} onRetry={media.reload} />}
      {media.state === 'loading' && !media.data && <Loading label="Loading media…" />}
      {media.data && items.length === 0 && (
        <Empty>{q ? 'Nothing matches this search.' : 'Nothing uploaded yet. Upload a file to use it here.'}</Empty>
      )}
      {items.length > 0 && (
        <ul className="picker-grid" aria-busy={media.state === 'loading'}>
          {items.map((item) => (
            <li key={item.id}>
              <button type="button" className="picker-item" aria-label={mediaName(item)} onClick={() => onPick(item)}>
                <MediaThumb item={item} width={160} />
                <span className="picker-name" aria-hidden="true">
                  {mediaName(item)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {media.data && media.data.totalPages > 1 && (
        <div className="picker-pages">
          <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </button>
          <span>
            Page {media.data.page} of {media.data.totalPages}
          </span>
          <button type="button" disabled={page >= media.data.totalPages} onClick={() => setPage(page + 1)}>
            Next
          </button>
        </div>
      )}
      <div className="actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
