import { useId, useState } from 'react';
import { api, ws } from '../api';
import { useAsync } from '../hooks';
import type { Media } from '../types';
import { MediaPicker } from './MediaPicker';
import { mediaName, thumbnailUrl } from './thumbnail';

interface Props {
  workspaceId: string;
  /** The chosen media id, or '' for none. */
  value: string;
  readOnly: boolean;
  error?: string | undefined;
  onChange(id: string): void;
}

/** The site logo, chosen from the media library rather than typed as an id. */
export function LogoField({ workspaceId, value, readOnly, error, onChange }: Props) {
  const [picking, setPicking] = useState(false);
  const [picked, setPicked] = useState<Media | null>(null);
  const labelId = useId();
  const current = useAsync(
    () =>
      value && picked?.id !== value
        ? api.get<Media>(ws(workspaceId, `/media/${encodeURIComponent(value)}`))
        : Promise.resolve(picked),
    [workspaceId, value],
  );
  const logo = current.data && current.data.id === value ? current.data : null;
  return (
    <div className="field" role="group" aria-labelledby={labelId}>
      <span id={labelId} className="field-label">
        Logo
      </span>
      <div className="logo-field">
        {logo ? (
          <img src={thumbnailUrl(logo, 160)} alt={`Current logo: ${mediaName(logo)}`} className="logo-thumb" />
        ) : (
          <p className="hint">{value ? 'The chosen image could not be shown.' : 'No logo chosen.'}</p>
        )}
        {!readOnly && (
          <>
            <button type="button" onClick={() => setPicking(true)}>
              {value ? 'Change logo' : 'Choose logo'}
            </button>
            {value && (
              <button type="button" className="button-quiet" onClick={() => onChange('')}>
                Remove logo
              </button>
            )}
          </>
        )}
      </div>
      {error && <p className="field-error">{error}</p>}
      <p className="hint">Used as the publisher’s logo in each post’s structured data.</p>
      <MediaPicker
        workspaceId={workspaceId}
        open={picking}
        onClose={() => setPicking(false)}
        onPick={(media) => {
          setPicked(media);
          setPicking(false);
          onChange(media.id);
        }}
      />
    </div>
  );
}
