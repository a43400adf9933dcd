import { useState } from 'react';
import { call, client } from '../api';
import { keys, useApi } from '../queries';
import { Pagination } from '../components/Pagination';
import { Empty, ErrorMessage, Loading, NOT_OFFERED } from '../components/Status';
import { useSearchState } from '../router';
import type { Media, WorkspaceSummary } from '../types';
import { MediaDetails } from './MediaDetails';
import { MediaThumb } from './MediaThumb';
import { mediaName } from './thumbnail';
import { UploadQueue } from './UploadQueue';
import './media.css';

/** The media screen: upload several files at once, a grid of thumbnails, and the chosen item's details. */
export function MediaLibrary({ workspace }: { workspace: WorkspaceSummary }) {
  const [search, updateSearch] = useSearchState(['page'] as const);
  const page = Math.max(1, Number(search.page) || 1);
  const [selected, setSelected] = useState<Media | null>(null);
  const media = useApi(keys.list(workspace.id, 'media', { page, pageSize: 24 }), () =>
    call(
      client.GET('/workspaces/{workspaceId}/media', {
        params: { path: { workspaceId: workspace.id }, query: { page, pageSize: 24 } },
      }),
    ),
  );
  const items = media.data?.data ?? [];

  return (
    <>
      <h1>Media</h1>
      <p className="lead">
        Images and files of this workspace. Choose one to edit its alt text or see where it is used.
      </p>
      <UploadQueue workspaceId={workspace.id} onUploaded={() => media.reload()} />
      <div className="media-library">
        <div className="media-library-grid">
          {media.state === 'error' && (
            <ErrorMessage error={media.error} onRetry={media.reload} notFound={NOT_OFFERED} />
          )}
          {media.state === 'loading' && !media.data && <Loading label="Loading media…" />}
          {media.data && items.length === 0 && <Empty>No media yet. Upload files above.</Empty>}
          {items.length > 0 && (
            <ul className="media-grid" aria-busy={media.state === 'loading'}>
              {items.map((item) => (
                <li key={item.id} className="media-card">
                  <button
                    type="button"
                    className="picker-item"
                    aria-pressed={selected?.id === item.id}
                    onClick={() => setSelected(item)}
                  >
                    <MediaThumb item={item} width={320} />
                    <span className="picker-name">{mediaName(item)}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          {media.data && media.data.totalPages > 1 && (
            <Pagination
              label="Media"
              page={media.data.page}
              totalPages={media.data.totalPages}
              total={media.data.total}
              onPage={(p) => updateSearch({ page: p > 1 ? String(p) : '' })}
            />
          )}
        </div>
        {selected && (
          <MediaDetails
            key={selected.id}
            workspaceId={workspace.id}
            media={selected}
            onChanged={(updated) => {
              setSelected(updated);
              media.reload();
            }}
            onDeleted={() => {
              setSelected(null);
              media.reload();
            }}
          />
        )}
      </div>
    </>
  );
}
