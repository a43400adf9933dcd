import { useId, useState } from 'react';
import { call, client, describeError } from '../api';
import { useCopy } from '../components/copy';
import { formatTime } from '../hooks';
import { Link } from '../router';
import type { Kind, SaveState } from './useStudio';

interface Preview {
  token: string;
  expiresAt: string;
  url: string | null;
}

interface Props {
  workspaceId: string;
  kind: Kind;
  /** The saved post's or page's id; null until its first save, when there is nothing on the server to preview. */
  id: string | null;
  /** It is live: the writer's saves are its pending changes, which the preview shows applied. */
  pending?: boolean;
  save: SaveState;
  /** The studio's save; resolves to false when it did not save. */
  run(): Promise<boolean>;
}

function makePreview(workspaceId: string, kind: Kind, id: string, pending: boolean): Promise<Preview> {
  const params = { path: { workspaceId, idOrSlug: id } };
  const body = pending ? { pending: true } : {};
  return kind === 'post'
    ? call(client.POST('/workspaces/{workspaceId}/posts/{idOrSlug}/preview', { params, body }))
    : call(client.POST('/workspaces/{workspaceId}/pages/{idOrSlug}/preview', { params, body }));
}

/** The content API's address of the draft, for a site without a preview route: a content key is still needed. */
function ContentApiAddress({ kind, id, token }: { kind: Kind; id: string; token: string }) {
  const inputId = useId();
  const address = `${window.location.origin}/api/v1/content/preview/${kind}s/${encodeURIComponent(id)}?key=CONTENT_KEY&token=${encodeURIComponent(token)}`;
  const { copy, status } = useCopy(address, inputId);
  return (
    <div className="secret">
      <label htmlFor={inputId}>Content API address of this draft</label>
      <div className="secret-row">
        <input id={inputId} className="mono" readOnly value={address} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      <p className="hint" role="status">
        {status}
      </p>
    </div>
  );
}

/**
 * "Preview on site": saves what is unsaved (the site reads the server's copy), makes a preview token and opens
 * the site's preview route with it in a new tab. Of a live copy the token carries its pending changes (the
 * server shows the live version as it is when there are none).
 */
export function PreviewOnSite({ workspaceId, kind, id, pending = false, save, run }: Props) {
  const [opening, setOpening] = useState(false);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [error, setError] = useState<unknown>(null);

  const open = async () => {
    if (!id) return;
    setOpening(true);
    setError(null);
    try {
      if ((save.kind === 'unsaved' || save.kind === 'error') && !(await run())) return;
      const made = await makePreview(workspaceId, kind, id, pending);
      setPreview(made);
      // noopener: the site's page gets no handle on the dashboard's window.
      if (made.url) window.open(made.url, '_blank', 'noopener,noreferrer');
    } catch (caught) {
      setError(caught);
    } finally {
      setOpening(false);
    }
  };

  return (
    <div className="preview-on-site">
      <button
        type="button"
        disabled={!id || opening || save.kind === 'saving' || save.kind === 'conflict'}
        onClick={() => void open()}
      >
        {opening ? 'Opening preview…' : 'Preview on site'}
      </button>
      {!id && <p className="hint">Save the draft first to preview it on the site.</p>}
      {error !== null && (
        <p className="field-error" role="alert">
          No preview: {describeError(error)}
        </p>
      )}
      {preview && id && (
        <div>
          {preview.url ? (
            <p className="hint" role="status">
              Opened in a new tab.{' '}
              <a href={preview.url} target="_blank" rel="noopener noreferrer">
                Open the preview again
              </a>{' '}
              (until {formatTime(preview.expiresAt)}).
            </p>
          ) : (
            <>
              <p className="hint" role="status">
                The site has no preview URL pattern yet: set one in{' '}
                <Link to={`/w/${workspaceId}/settings`}>Site settings</Link> and this button opens the draft on the
                site. Until then, a site reads it from this address with a content key (
                <Link to={`/w/${workspaceId}/keys`}>API keys</Link>) in place of <code>CONTENT_KEY</code>, until{' '}
                {formatTime(preview.expiresAt)}.
              </p>
              <ContentApiAddress kind={kind} id={id} token={preview.token} />
            </>
          )}
        </div>
      )}
    </div>
  );
}
