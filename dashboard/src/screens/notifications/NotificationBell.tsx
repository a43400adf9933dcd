import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Email } from '../../components/Email';
import { ErrorMessage } from '../../components/Status';
import { formatTime } from '../../hooks';
import { Link } from '../../router';
import type { ReviewNotification, WorkspaceSummary } from '../../types';
import { reviewKeys, studioPath } from '../reviews/review-api';
import { bellLabel, notificationWords } from './notification-words';
import { useNotifications } from './useNotifications';
import './notifications.css';

function BellIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2Zm-2 1H7v-6a5 5 0 0 1 10 0v6Z"
      />
    </svg>
  );
}

function Item({ workspaceId, note, onOpen }: { workspaceId: string; note: ReviewNotification; onOpen(): void }) {
  const { before, after } = notificationWords(note.type);
  const unread = note.readAt === null;
  return (
    <li className={unread ? 'bell-item bell-unread' : 'bell-item'}>
      <Link to={studioPath(workspaceId, note.review.kind, note.review.resourceId)} onClick={onOpen}>
        {unread && <span className="visually-hidden">Unread: </span>}
        <span className="bell-sentence">
          <span className="bell-who">
            <Email address={note.actor.email} />
          </span>{' '}
          {before} “{note.review.title || 'untitled'}”{after}
        </span>
        {note.excerpt && <span className="bell-excerpt">“{note.excerpt}”</span>}
        <time dateTime={note.createdAt}>{formatTime(note.createdAt)}</time>
      </Link>
    </li>
  );
}

/**
 * The bell in the top bar: how many notifications are unread, and a panel listing them in words. Opening one
 * marks it read and opens the draft in the studio. Escape, or a click outside, closes the panel; the keyboard
 * goes back to the bell.
 */
export function NotificationBell({ workspace }: { workspace: WorkspaceSummary }) {
  // Every route of a workspace that requires a second factor answers 403 until the member has one.
  const enabled = !workspace.secondFactorMissing;
  const { query, read } = useNotifications(workspace.id, { enabled });
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const wrapper = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const panelId = useId();
  const headingId = useId();
  const unread = query.data?.unread ?? 0;
  const notes = query.data?.data ?? [];
  const { refetch } = query;

  useEffect(() => {
    if (!open) return;
    heading.current?.focus();
    void refetch({ cancelRefetch: false });
    const outside = (event: PointerEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open, refetch]);

  if (!enabled) return null;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Escape' || !open) return;
    // Handled: the studio's sheet and focus mode leave an Escape alone once it is.
    event.preventDefault();
    setOpen(false);
    button.current?.focus();
  };
  const opened = (note: ReviewNotification) => {
    setOpen(false);
    if (note.readAt === null) void read([note.id]);
    // Its thread may be on screen already (the studio of that very draft): read it again.
    void queryClient.invalidateQueries({ queryKey: reviewKeys.all(workspace.id) });
  };

  return (
    <div className="bell" ref={wrapper} onKeyDown={onKeyDown}>
      <button
        ref={button}
        type="button"
        className="button-quiet bell-button"
        aria-label={bellLabel(unread)}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((now) => !now)}
      >
        <BellIcon />
        {unread > 0 && (
          <span className="bell-count" aria-hidden="true">
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </button>
      <div id={panelId} className="bell-panel" role="region" aria-labelledby={headingId} hidden={!open}>
        <div className="bell-head">
          <h2 id={headingId} ref={heading} tabIndex={-1}>
            Notifications
          </h2>
          <button type="button" className="button-small" disabled={unread === 0} onClick={() => void read()}>
            Mark all as read
          </button>
        </div>
        {query.isError && !query.isFetching && <ErrorMessage error={query.error} onRetry={() => void refetch()} />}
        {query.data && notes.length === 0 && (
          <p className="hint bell-empty">
            Nothing yet. You are told here when a draft is submitted for review, commented on, sent back for changes or
            approved.
          </p>
        )}
        {notes.length > 0 && (
          <ul className="bell-list" aria-label="Notifications, newest first">
            {notes.map((note) => (
              <Item key={note.id} workspaceId={workspace.id} note={note} onOpen={() => opened(note)} />
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
