import { useId, useState, type FormEvent } from 'react';
import { ApiError, call, client, describeError } from '../api';
import { useCopy } from '../components/copy';
import { ConfirmDialog } from '../components/Dialog';
import { Badge, ErrorMessage, Loading } from '../components/Status';
import { formatTime } from '../hooks';
import { keys, useApi, useWrite } from '../queries';
import type { ReviewLink } from '../types';
import type { Kind } from './useStudio';
import './review-links.css';

const DAY = 24 * 3600;
const EXPIRIES = [
  { seconds: DAY, label: '1 day' },
  { seconds: 7 * DAY, label: '7 days' },
  { seconds: 30 * DAY, label: '30 days' },
] as const;
const NOTE_MAX = 200;

interface Props {
  workspaceId: string;
  kind: Kind;
  /** The saved post's or page's id; null until its first save, when there is nothing on the server to share. */
  id: string | null;
}

function listLinks(workspaceId: string, kind: Kind, id: string) {
  const params = { path: { workspaceId, idOrSlug: id } };
  return kind === 'post'
    ? call(client.GET('/workspaces/{workspaceId}/posts/{idOrSlug}/review-links', { params }))
    : call(client.GET('/workspaces/{workspaceId}/pages/{idOrSlug}/review-links', { params }));
}

function createLink(workspaceId: string, kind: Kind, id: string, body: { expiresInSeconds: number; note?: string }) {
  const params = { path: { workspaceId, idOrSlug: id } };
  return kind === 'post'
    ? call(client.POST('/workspaces/{workspaceId}/posts/{idOrSlug}/review-links', { params, body }))
    : call(client.POST('/workspaces/{workspaceId}/pages/{idOrSlug}/review-links', { params, body }));
}

function withdrawLink(workspaceId: string, kind: Kind, id: string, linkId: string) {
  const params = { path: { workspaceId, idOrSlug: id, id: linkId } };
  return kind === 'post'
    ? call(client.DELETE('/workspaces/{workspaceId}/posts/{idOrSlug}/review-links/{id}', { params }))
    : call(client.DELETE('/workspaces/{workspaceId}/pages/{idOrSlug}/review-links/{id}', { params }));
}

const opened = (count: number) =>
  count === 0 ? 'Not opened yet' : `Opened ${count === 1 ? 'once' : `${count} times`}`;

/** One link: who it is for, until when, how often it was read; its address to copy, and Withdraw. */
function LinkItem({ link, onWithdraw }: { link: ReviewLink; onWithdraw(): void }) {
  const inputId = useId();
  const { copy, status } = useCopy(link.url, inputId);
  const name = link.note ?? `made ${formatTime(link.createdAt)}`;
  return (
    <li className="review-link">
      <p className="review-link-note">{link.note ?? 'Review link'}</p>
      <p className="hint">
        {link.expired ? (
          <Badge tone="bad">Expired</Badge>
        ) : (
          <>
            Expires <time dateTime={link.expiresAt}>{formatTime(link.expiresAt)}</time>
          </>
        )}
        {' · '}
        {opened(link.openedCount)}
        {link.lastOpenedAt && (
          <>
            , last <time dateTime={link.lastOpenedAt}>{formatTime(link.lastOpenedAt)}</time>
          </>
        )}
      </p>
      <label className="visually-hidden" htmlFor={inputId}>
        Review link {name}
      </label>
      <input id={inputId} className="mono" readOnly value={link.url} onFocus={(e) => e.currentTarget.select()} />
      <div className="review-link-actions">
        <button type="button" className="button-small" disabled={link.expired} onClick={() => void copy()}>
          Copy link<span className="visually-hidden"> {name}</span>
        </button>
        <button type="button" className="button-small button-danger-quiet" onClick={onWithdraw}>
          Withdraw<span className="visually-hidden"> link {name}</span>
        </button>
      </div>
      <p className="hint" role="status">
        {status}
      </p>
    </li>
  );
}

/**
 * "Share for review": links that let someone without an account read this post or page as its next Update would
 * leave it, until they expire or are withdrawn (docs/publishing.md, "Review links"). Nothing before the first
 * save, and nothing for someone who may not write it (the links answer 403 then).
 */
export function ReviewLinks({ workspaceId, kind, id }: Props) {
  const headingId = useId();
  const expiryId = useId();
  const noteId = useId();
  const noteHintId = useId();
  const [expiresInSeconds, setExpiresInSeconds] = useState<number>(7 * DAY);
  const [note, setNote] = useState('');
  const [made, setMade] = useState<string | null>(null);
  const [withdrawing, setWithdrawing] = useState<ReviewLink | null>(null);
  const key = keys.item(workspaceId, `${kind}s`, id ?? '', 'review-links');
  const links = useApi(key, () => listLinks(workspaceId, kind, id!), { enabled: id !== null });
  const create = useWrite(
    (body: { expiresInSeconds: number; note?: string }) => createLink(workspaceId, kind, id!, body),
    [key],
  );
  const withdraw = useWrite((linkId: string) => withdrawLink(workspaceId, kind, id!, linkId), [key]);

  if (id === null) return null;
  if (links.error instanceof ApiError && links.error.status === 403) return null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setMade(null);
    const trimmed = note.trim();
    const link = await create.execute({ expiresInSeconds, ...(trimmed ? { note: trimmed } : {}) });
    if (link) {
      setNote('');
      setMade(`Review link made: copy it below and send it to ${link.note ?? 'your reader'}.`);
    }
  };

  return (
    <section className="review-links" aria-labelledby={headingId}>
      <h3 id={headingId}>Share for review</h3>
      <p className="hint">
        A read-only link to this {kind} as it will be published, for someone without an account. Anyone who has it can
        read it until it expires or you withdraw it.
      </p>
      <form className="review-links-form" onSubmit={(event) => void submit(event)}>
        <div className="field">
          <label htmlFor={expiryId}>Expires after</label>
          <select id={expiryId} value={expiresInSeconds} onChange={(e) => setExpiresInSeconds(Number(e.target.value))}>
            {EXPIRIES.map((choice) => (
              <option key={choice.seconds} value={choice.seconds}>
                {choice.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={noteId}>Note (optional)</label>
          <input
            id={noteId}
            value={note}
            maxLength={NOTE_MAX}
            aria-describedby={noteHintId}
            onChange={(e) => setNote(e.target.value)}
          />
          <p id={noteHintId} className="hint">
            Who it is for; only your team sees it.
          </p>
        </div>
        <button type="submit" disabled={create.pending}>
          {create.pending ? 'Making the link…' : 'Create review link'}
        </button>
      </form>
      {create.error !== null && (
        <p className="field-error" role="alert">
          No link made: {describeError(create.error)}
        </p>
      )}
      <p className="hint" role="status">
        {made}
      </p>
      {links.state === 'error' && <ErrorMessage error={links.error} onRetry={links.reload} />}
      {!links.data && links.state === 'loading' && <Loading label="Loading review links…" />}
      {links.data && links.data.data.length > 0 && (
        <ul className="review-link-list" aria-label="Review links, newest first">
          {links.data.data.map((link) => (
            <LinkItem key={link.id} link={link} onWithdraw={() => setWithdrawing(link)} />
          ))}
        </ul>
      )}
      {withdrawing && (
        <ConfirmDialog
          title="Withdraw this review link?"
          confirmLabel="Withdraw link"
          danger
          pending={withdraw.pending}
          error={
            withdraw.error !== null && (
              <p className="field-error" role="alert">
                {describeError(withdraw.error)}
              </p>
            )
          }
          onCancel={() => {
            withdraw.setError(null);
            setWithdrawing(null);
          }}
          onConfirm={async () => {
            if (await withdraw.execute(withdrawing.id)) {
              setMade(null);
              setWithdrawing(null);
            }
          }}
        >
          Whoever opens {withdrawing.note ? `the link for ${withdrawing.note}` : 'this link'} from now on is told it was
          withdrawn. You can make a new one at any time.
        </ConfirmDialog>
      )}
    </section>
  );
}
