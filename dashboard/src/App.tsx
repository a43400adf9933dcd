import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { ApiError, call, client, setCsrfToken, setUnauthorizedHandler } from './api';
import { Loading, ErrorMessage } from './components/Status';
import { match, useRouter } from './router';
import { preferredWorkspace, SessionProvider, useSession, type SessionValue } from './session';
import { NotFoundScreen, PublicFrame } from './screens/Public';
import { SetupScreen } from './screens/Setup';
import { SignInScreen } from './screens/SignIn';
import { Shell, NoWorkspaceScreen } from './screens/Shell';
import { isSection, landingSection } from './sections';
import { studioView } from './studio/route';
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

  const setSession = useCallback(
    (session: Session | null) => {
      // What one person read must not be shown to whoever signs in next on this page.
      if (!session) queryClient.clear();
      setCsrfToken(session?.csrfToken ?? null);
      setPhase(session ? { kind: 'signed-in', session } : { kind: 'anonymous' });
    },
    [queryClient],
  );

  const load = useCallback(async () => {
    try {
      setSession(await call(client.GET('/session'), { quiet401: true }));
    } catch (error) {
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

function SignedInRoutes() {
  const { location } = useRouter();
  const path = location.path;
  if (path === '/' || path === '/sign-in') return <Home />;
  if (path === '/account') return <Shell view={{ kind: 'account' }} />;
  const studio = studioView(path);
  if (studio) return <Shell view={studio} />;
  const post = match('/w/:workspaceId/posts/:postId', path);
  if (post) return <Shell view={{ kind: 'post', workspaceId: post.workspaceId!, postId: post.postId! }} />;
  const section = match('/w/:workspaceId/:section', path);
  if (section && isSection(section.section!))
    return <Shell view={{ kind: 'section', workspaceId: section.workspaceId!, section: section.section }} />;
  const bare = match('/w/:workspaceId', path);
  if (bare) return <WorkspaceHome workspaceId={bare.workspaceId!} />;
  return <NotFoundScreen />;
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
