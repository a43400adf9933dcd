import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, call, client, setCsrfToken, setUnauthorizedHandler } from './api';
import { Loading, ErrorMessage } from './components/Status';
import { Route, Switch } from 'wouter';
import { useRouter } from './router';
import { preferredWorkspace, SessionProvider, useSession, type SessionValue } from './session';
import { NotFoundScreen, PublicFrame } from './screens/Public';
import { SetupScreen } from './screens/Setup';
import { ForgotPasswordScreen } from './screens/team/ForgotPasswordScreen';
import { InvitationScreen } from './screens/team/InvitationScreen';
import { ResetPasswordScreen } from './screens/team/ResetPasswordScreen';
import { SignInScreen } from './screens/SignIn';
import { Shell, NoWorkspaceScreen } from './screens/Shell';
import { isSection, landingSection } from './sections';
import { studioView, type StudioView } from './studio/route';
import type { Session } from './types';

type Phase =
  | { kind: 'loading' }
  | { kind: 'error'; error: unknown }
  | { kind: 'anonymous' }
  | { kind: 'signed-in'; session: Session };

export function App() {
  const { location, navigate } = useRouter();
  const [phase, setPhase] = useState<Phase>({ kind: 'loading' });

  const queryClient = useQueryClient();

  // Counts the session changes made on this page (setup, sign-in, sign-out, a 401), so that an answer to
  // GET /session asked for before one of them cannot undo it: on a busy machine the dashboard's first,
  // anonymous answer can arrive after setup has already signed the owner in.
  const changes = useRef(0);
  // Whose session the page holds: an invitation or a reset link can sign someone else in over it.
  const signedIn = useRef<string | null>(null);

  const setSession = useCallback(
    (session: Session | null) => {
      changes.current += 1;
      // What one person read must not be shown to whoever signs in next on this page.
      if (signedIn.current !== null && signedIn.current !== (session?.user.id ?? null)) queryClient.clear();
      signedIn.current = session?.user.id ?? null;
      setCsrfToken(session?.csrfToken ?? null);
      setPhase(session ? { kind: 'signed-in', session } : { kind: 'anonymous' });
    },
    [queryClient],
  );

  const load = useCallback(async () => {
    const asked = changes.current;
    const current = () => changes.current === asked;
    try {
      const session = await call(client.GET('/session'), { quiet401: true });
      if (current()) setSession(session);
    } catch (error) {
      if (!current()) return;
      if (error instanceof ApiError && error.status === 401) setSession(null);
      else setPhase({ kind: 'error', error });
    }
  }, [setSession]);

  useEffect(() => {
    void load();
    setUnauthorizedHandler(() => setSession(null));
    return () => setUnauthorizedHandler(null);
  }, [load, setSession]);

  const sessionValue = useMemo<SessionValue | null>(
    () => (phase.kind === 'signed-in' ? { session: phase.session, setSession, refresh: load } : null),
    [phase, setSession, load],
  );

  // Setup stands alone: it must work (or say 404) whatever the session is.
  if (location.path === '/setup') {
    return (
      <SetupScreen
        onDone={(session) => {
          setSession(session);
          const first = session.workspaces[0];
          navigate(first ? `/w/${first.id}/${landingSection(first)}` : '/', { replace: true });
        }}
      />
    );
  }
  // So do the screens a mailed link opens, and the one that asks for such a link: signed in or not.
  if (location.path === '/invitation') {
    return (
      <InvitationScreen
        signedInAs={phase.kind === 'signed-in' ? phase.session.user.email : null}
        onJoined={(session, workspaceId) => {
          setSession(session);
          const joined = session.workspaces.find((w) => w.id === workspaceId);
          navigate(joined ? `/w/${joined.id}/${landingSection(joined)}` : '/', { replace: true });
        }}
      />
    );
  }
  if (location.path === '/forgot-password') return <ForgotPasswordScreen />;
  if (location.path === '/reset-password') {
    return (
      <ResetPasswordScreen
        onDone={(session) => {
          setSession(session);
          navigate('/', { replace: true });
        }}
      />
    );
  }
  if (phase.kind === 'loading') {
    return (
      <PublicFrame title="Quire">
        <Loading label="Loading your session…" />
      </PublicFrame>
    );
  }
  if (phase.kind === 'error') {
    return (
      <PublicFrame title="Quire">
        <ErrorMessage error={phase.error} onRetry={() => void load()} />
      </PublicFrame>
    );
  }
  if (phase.kind === 'anonymous' || !sessionValue) return <SignInScreen onSignedIn={setSession} />;

  return (
    <SessionProvider value={sessionValue}>
      <SignedInRoutes />
    </SessionProvider>
  );
}

function Redirect({ to }: { to: string }) {
  const { navigate } = useRouter();
  useEffect(() => navigate(to, { replace: true }), [navigate, to]);
  return null;
}

/** Every signed-in URL; a path that matches none, or a section that does not exist, is the 404 screen. */
function SignedInRoutes() {
  const studio = (view: StudioView | null) => (view ? <Shell view={view} /> : <NotFoundScreen />);
  return (
    <Switch>
      <Route path="/">
        <Home />
      </Route>
      <Route path="/sign-in">
        <Home />
      </Route>
      <Route path="/account">
        <Shell view={{ kind: 'account' }} />
      </Route>
      <Route<{ workspaceId: string; collection: string }> path="/w/:workspaceId/:collection/new">
        {({ workspaceId, collection }) => studio(studioView(workspaceId, collection, null))}
      </Route>
      <Route<{ workspaceId: string; collection: string; id: string }> path="/w/:workspaceId/:collection/:id/edit">
        {({ workspaceId, collection, id }) => studio(studioView(workspaceId, collection, id))}
      </Route>
      <Route<{ workspaceId: string; postId: string }> path="/w/:workspaceId/posts/:postId">
        {({ workspaceId, postId }) => <Shell view={{ kind: 'post', workspaceId, postId }} />}
      </Route>
      <Route<{ workspaceId: string; section: string }> path="/w/:workspaceId/:section">
        {({ workspaceId, section }) =>
          isSection(section) ? <Shell view={{ kind: 'section', workspaceId, section }} /> : <NotFoundScreen />
        }
      </Route>
      <Route<{ workspaceId: string }> path="/w/:workspaceId">
        {({ workspaceId }) => <WorkspaceHome workspaceId={workspaceId} />}
      </Route>
      <Route>
        <NotFoundScreen />
      </Route>
    </Switch>
  );
}

function Home() {
  const workspace = preferredWorkspace(useSession().session);
  if (!workspace) return <NoWorkspaceScreen />;
  return <Redirect to={`/w/${workspace.id}/${landingSection(workspace)}`} />;
}

function WorkspaceHome({ workspaceId }: { workspaceId: string }) {
  const workspace = useSession().session.workspaces.find((w) => w.id === workspaceId);
  return <Redirect to={workspace ? `/w/${workspace.id}/${landingSection(workspace)}` : '/'} />;
}
