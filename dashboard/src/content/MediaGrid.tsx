import { api, ws } from '../api';
import { Pagination } from '../components/Pagination';
import { Empty, ErrorMessage, Loading, NOT_OFFERED } from '../components/Status';
import { useAsync } from '../hooks';
import { useSearchState } from '../router';
import type { Media, Paginated, WorkspaceSummary } from '../types';

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function MediaGrid({ workspace }: { workspace: WorkspaceSummary }) {
  const [search, updateSearch] = useSearchState(['page'] as const);
  const page = Math.max(1, Number(search.page) || 1);
  const media = useAsync(
    () => api.get<Paginated<Media>>(ws(workspace.id, '/media'), { page, pageSize: 24 }),
    [workspace.id, page],
  );
  return (
    <>
      <h1>Media</h1>
      <p className="lead">Uploaded files. Images show a thumbnail.</p>
      {media.state === 'error' && <ErrorMessage error={media.error} onRetry={media.reload} notFound={NOT_OFFERED} />}
      {media.state === 'loading' && !media.data && <Loading label="Loading media…" />}
      {media.data && media.data.data.length === 0 && <Empty>No media yet.</Empty>}
      {media.data && media.data.data.length > 0 && (
        <ul className="media-grid" aria-busy={media.state === 'loading'}>
          {media.data.data.map((item) => (
            <li key={item.id} className="media-card">
              {item.mimeType.startsWith('image/') ? (
                <img
                  src={item.url}
                  alt={item.alt ?? ''}
                  loading="lazy"
                  width={item.width ?? undefined}
                  height={item.height ?? undefined}
                />
              ) : (
                <div className="media-file" aria-hidden="true">
                  {item.mimeType.split('/')[1]?.toUpperCase() ?? 'FILE'}
                </div>
              )}
              <p className="media-name" title={item.filename}>
                {item.filename}
              </p>
              <p className="hint">
                {item.mimeType} · {size(item.sizeBytes)}
                {item.width && item.height ? ` · ${item.width}×${item.height}` : ''}
              </p>
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
    </>
  );
}
