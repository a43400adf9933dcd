import { useId } from 'react';
import { mediaName, thumbnailUrl } from './thumbnail';
import { useMediaChoice } from './useMediaChoice';

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
  const labelId = useId();
  const { media: logo, openPicker, picker } = useMediaChoice(workspaceId, value, onChange);
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
            <button type="button" onClick={openPicker}>
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
      {picker}
    </div>
  );
}
