import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ApiError, call, client } from '../../api';
import type { components } from '../../api/schema';
import { ConfirmDialog } from '../../components/Dialog';
import { Badge, ErrorMessage, Loading } from '../../components/Status';
import { formatTime } from '../../hooks';
import { useApi, useWrite } from '../../queries';
import { deviceName } from './device';
import { timeAgo } from './time';
import { useSignOut } from './useSignOut';

type SessionInfo = components['schemas']['SessionInfo'];

/** The signed-in user's sessions: not a workspace's, so not under `['w', …]`. A password change reads them again. */
export const SESSIONS_KEY = ['account', 'sessions'] as const;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What a row's button says to a screen reader: which session it ends ("Chrome on Linux, 10.0.0.1"). */
function sessionLabel(session: SessionInfo): string {
  const device = deviceName(session.userAgent);
  return session.ip ? `${device}, ${session.ip}` : device;
}

/** Every session the user has, this device's first, each with a way to end it. */
export function Sessions() {
  const queryClient = useQueryClient();
  const sessions = useApi(SESSIONS_KEY, () => call(client.GET('/sessions')));
  const [message, setMessage] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [ending, setEnding] = useState<string | null>(null);
  // Where the focus goes once the button that had it is gone (its row ended, or every other row).
  const heading = useRef<HTMLHeadingElement>(null);
  const [refocus, setRefocus] = useState(0);
  const { signOut, pending: signingOut, error: signOutError } = useSignOut();

  const endOne = useWrite(
    async (id: string) => {
      try {
        return await call(client.DELETE('/sessions/{id}', { params: { path: { id } } }));
      } catch (error) {
        // Ended meanwhile (it expired, or was signed out elsewhere): what was asked for is done.
        if (error instanceof ApiError && error.status === 404) return { ended: 0 };
        throw error;
      }
    },
    [SESSIONS_KEY],
  );
  const endOthers = useWrite(() => call(client.POST('/sessions/end-others')), [SESSIONS_KEY]);

  useEffect(() => {
    if (refocus === 0) return;
    // After the dialog's own clean-up, which would put the focus on <main> when its opener is gone.
    const timer = window.setTimeout(() => heading.current?.focus(), 0);
    return () => window.clearTimeout(timer);
  }, [refocus]);

  const list = sessions.data ? [...sessions.data].sort((a, b) => Number(b.current) - Number(a.current)) : [];
  const others = list.filter((s) => !s.current);

  // Two rows that read alike (one browser signed in twice from one address) say when each began.
  const names = new Map<string, number>();
  for (const s of list) names.set(sessionLabel(s), (names.get(sessionLabel(s)) ?? 0) + 1);
  const buttonName = (s: SessionInfo) => {
    const label = sessionLabel(s);
    const named = (names.get(label) ?? 0) > 1 ? `${label}, signed in ${formatTime(s.createdAt)}` : label;
    return s.current ? ` this device, ${named}` : ` ${named}`;
  };

  const end = async (session: SessionInfo) => {
    if (session.current) return signOut();
    setMessage('');
    setEnding(session.id);
    const answer = await endOne.execute(session.id);
    setEnding(null);
    if (!answer) return;
    setMessage(answer.ended === 0 ? 'That session had already ended.' : `Signed out ${sessionLabel(session)}.`);
    setRefocus((n) => n + 1);
  };

  const confirmEndOthers = async () => {
    setMessage('');
    const answer = await endOthers.execute();
    if (!answer) return;
    // The list shows this device alone at once; the read that follows the write confirms it.
    queryClient.setQueryData<SessionInfo[]>(SESSIONS_KEY, (old) => old?.filter((s) => s.current));
    setConfirming(false);
    setMessage(
      answer.ended === 0
        ? 'There were no other sessions to sign out.'
        : `Signed out ${plural(answer.ended, 'other session', 'other sessions')}.`,
    );
    setRefocus((n) => n + 1);
  };

  return (
    <section className="panel sessions" aria-labelledby="sessions-title">
      <h2 id="sessions-title" ref={heading} tabIndex={-1}>
        Sessions
      </h2>
      <div className="sessions-intro">
        <p className="hint">
          Where you are signed in to the dashboard. If you do not recognise a session, sign it out and change your
          password.
        </p>
        {others.length > 0 && (
          <button
            type="button"
            className="button-danger-quiet"
            onClick={() => {
              endOthers.setError(null);
              setConfirming(true);
            }}
          >
            Sign out everywhere else
          </button>
        )}
      </div>
      <p role="status" className="success-text">
        {message}
      </p>
      {endOne.error !== null && <ErrorMessage error={endOne.error} />}
      {signOutError !== null && <ErrorMessage error={signOutError} />}
      {sessions.state === 'error' && <ErrorMessage error={sessions.error} onRetry={sessions.reload} />}
      {sessions.state === 'loading' && !sessions.data && <Loading label="Loading sessions…" />}
      {list.length > 0 && (
        <ul className="session-list" aria-labelledby="sessions-title" aria-busy={sessions.state === 'loading'}>
          {list.map((s) => {
            const ago = timeAgo(s.lastSeenAt);
            const busy = s.current ? signingOut : ending === s.id;
            return (
              <li key={s.id} className="session" data-session-id={s.id} data-current={s.current || undefined}>
                <div className="session-about">
                  <h3 className="session-device">
                    {deviceName(s.userAgent)}
                    {s.current && (
                      <>
                        {' '}
                        <Badge tone="good">This device</Badge>
                      </>
                    )}
                  </h3>
                  <dl className="session-facts">
                    <div>
                      <dt>IP address</dt>
                      <dd>{s.ip ?? 'Unknown'}</dd>
                    </div>
                    <div>
                      <dt>Signed in</dt>
                      <dd>
                        <time dateTime={s.createdAt}>{formatTime(s.createdAt)}</time>
                      </dd>
                    </div>
                    <div>
                      <dt>Last active</dt>
                      <dd>
                        <time dateTime={s.lastSeenAt} title={formatTime(s.lastSeenAt)}>
                          {ago ?? formatTime(s.lastSeenAt)}
                        </time>
                      </dd>
                    </div>
                  </dl>
                </div>
                <button type="button" disabled={busy} onClick={() => void end(s)}>
                  {busy ? 'Signing out…' : 'Sign out'}
                  <span className="visually-hidden">{buttonName(s)}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}

      {confirming && (
        <ConfirmDialog
          title="Sign out everywhere else?"
          confirmLabel="Sign out everywhere else"
          danger
          pending={endOthers.pending}
          error={endOthers.error !== null ? <ErrorMessage error={endOthers.error} /> : undefined}
          onConfirm={() => void confirmEndOthers()}
          onCancel={() => setConfirming(false)}
        >
          <p>
            {plural(others.length, 'other session', 'other sessions')} will end: whoever uses{' '}
            {others.length === 1 ? 'it' : 'them'} must sign in again. This device stays signed in.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
