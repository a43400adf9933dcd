import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { call, client } from '../api';
import { ErrorMessage, Loading } from '../components/Status';
import { Link, takeQuietChange, useRouter } from '../router';
import { preferredWorkspace, rememberWorkspace, useSession } from '../session';
import type { WorkspaceSummary } from '../types';
import { allowed, NAV, type Section } from '../sections';
import { AccountScreen } from './Account';
import { KeysScreen } from './keys/KeysScreen';
import { MembersScreen } from './members/MembersScreen';
import { SettingsScreen } from './Settings';
import { PostsScreen } from '../content/PostsScreen';
import { PostScreen } from '../content/PostScreen';
import { ContentListScreen } from '../content/ContentLists';
import { WorkspaceSwitcher } from './WorkspaceSwitcher';
import { WebhooksScreen } from '../webhooks/WebhooksScreen';
import { AuditScreen } from './audit/AuditScreen';
import { SecondFactorRequired } from './account/SecondFactorRequired';
import { StudioScreen, type StudioView } from '../studio/route';
import { NotificationBell } from './notifications/NotificationBell';
import { ReviewCount } from './reviews/ReviewCount';

const ImportScreen = lazy(() => import('./imports/ImportScreen').then((m) => ({ default: m.ImportScreen })));
const ReviewsScreen = lazy(() => import('./reviews/ReviewsScreen').then((m) => ({ default: m.ReviewsScreen })));

export type ShellView =
  | { kind: 'account' }
  | { kind: 'section'; workspaceId: string; section: Section }
  | { kind: 'post'; workspaceId: string; postId: string }
  | StudioView;

export function Shell({ view }: { view: ShellView }) {
  const { session, setSession } = useSession();
  const { location, navigate } = useRouter();
  const [menuOpen, setMenuOpen] = useState(false);
  const mainRef = useRef<HTMLElement>(null);
  const firstRender = useRef(true);

  const workspace =
    view.kind === 'account'
      ? preferredWorkspace(session)
      : (session.workspaces.find((w) => w.id === view.workspaceId) ?? null);
  const current =
    view.kind === 'section'
      ? view.section
      : view.kind === 'post'
        ? 'posts'
        : view.kind === 'studio'
          ? (`${view.resource}s` as const)
          : null;

  useEffect(() => {
    if (workspace) rememberWorkspace(workspace.id);
  }, [workspace]);

  // A route change is a new page for a screen reader: move focus to the content, as a page load would. An address
  // a screen changed in place is not one.
  useEffect(() => {
    const quiet = takeQuietChange(location.path);
    setMenuOpen(false);
    if (firstRender.current) firstRender.current = false;
    else if (!quiet) mainRef.current?.focus();
  }, [location.path]);

  const [signOutError, setSignOutError] = useState<unknown>(null);
  // Only a sign-out the server confirmed counts: the HttpOnly cookie cannot be dropped from here.
  const signOut = async () => {
    setSignOutError(null);
    try {
      await call(client.DELETE('/session'));
      setSession(null);
      navigate('/sign-in', { replace: true });
    } catch (error) {
      setSignOutError(error);
    }
  };

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link to="/" className="brand">
          Quire
        </Link>
        {workspace && <WorkspaceSwitcher workspace={workspace} section={current ?? 'keys'} />}
        <div className="topbar-end">
          <button
            type="button"
            className="menu-toggle"
            aria-expanded={menuOpen}
            aria-controls="sidebar"
            onClick={() => setMenuOpen((open) => !open)}
          >
            Menu
          </button>
          {workspace && <NotificationBell key={workspace.id} workspace={workspace} />}
          <Link to="/account" className="account-link" aria-current={view.kind === 'account' ? 'page' : undefined}>
            <span className="account-short">Account</span>
            <span className="account-email">
              <span className="visually-hidden">Account: </span>
              {session.user.email}
            </span>
          </Link>
          <button type="button" className="button-quiet" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <div className="layout">
        {workspace && (
          <nav id="sidebar" className="sidebar" data-open={menuOpen} aria-label="Sections">
            {NAV.map((group) => {
              const items = group.items.filter((item) => allowed(workspace, item));
              if (items.length === 0) return null;
              return (
                <div key={group.heading} className="nav-group">
                  <p className="nav-heading" id={`nav-${group.heading.replace(/\s+/g, '-').toLowerCase()}`}>
                    {group.heading}
                  </p>
                  <ul aria-labelledby={`nav-${group.heading.replace(/\s+/g, '-').toLowerCase()}`}>
                    {items.map((item) => (
                      <li key={item.section}>
                        <Link
                          to={`/w/${workspace.id}/${item.section}`}
                          aria-current={current === item.section ? 'page' : undefined}
                        >
                          {item.label}
                          {item.section === 'reviews' && <ReviewCount workspace={workspace} />}
                        </Link>
                      </li>
                    ))}
                  </ul>
                </div>
              );
            })}
          </nav>
        )}
        <main id="main" ref={mainRef} tabIndex={-1} className="content">
          {signOutError !== null && <ErrorMessage error={signOutError} />}
          {workspace ? (
            <Screen view={view} workspace={workspace} />
          ) : view.kind === 'account' ? (
            <AccountScreen />
          ) : (
            <MissingWorkspace />
          )}
        </main>
      </div>
    </div>
  );
}

function Screen({ view, workspace }: { view: ShellView; workspace: WorkspaceSummary }) {
  if (view.kind === 'account') return <AccountScreen />;
  // Every route of such a workspace answers this member 403 until they set one up under Account.
  if (workspace.secondFactorMissing) return <SecondFactorRequired workspace={workspace} />;
  if (view.kind === 'post') return <PostScreen workspace={workspace} postId={view.postId} />;
  if (view.kind === 'studio') return <StudioScreen workspace={workspace} view={view} />;
  switch (view.section) {
    case 'keys':
      return <KeysScreen workspace={workspace} />;
    case 'members':
      return <MembersScreen workspace={workspace} />;
    case 'settings':
      return <SettingsScreen workspace={workspace} />;
    case 'posts':
      return <PostsScreen workspace={workspace} />;
    case 'webhooks':
      return <WebhooksScreen workspace={workspace} />;
    case 'audit':
      return <AuditScreen workspace={workspace} />;
    case 'reviews':
      return (
        <Suspense fallback={<Loading label="Loading the reviews…" />}>
          <ReviewsScreen workspace={workspace} />
        </Suspense>
      );
    case 'imports':
      return (
        <Suspense fallback={<Loading label="Loading the import screen…" />}>
          <ImportScreen workspace={workspace} />
        </Suspense>
      );
    default:
      return <ContentListScreen key={view.section} workspace={workspace} resource={view.section} />;
  }
}

function MissingWorkspace() {
  return (
    <>
      <h1>Workspace not found</h1>
      <ErrorMessage error={new Error('This workspace does not exist, or you are no longer a member of it.')} />
      <p>
        <Link to="/">Go to your workspaces</Link>
      </p>
    </>
  );
}

/** Signed in, but a member of nothing (their last membership was removed): they can still start one. */
export function NoWorkspaceScreen() {
  return (
    <Frame>
      <h1>No workspace yet</h1>
      <p>You are not a member of any workspace. Create one, or ask an owner to add you to theirs.</p>
      <WorkspaceSwitcher workspace={null} section="keys" />
    </Frame>
  );
}

function Frame({ children }: { children: ReactNode }) {
  return (
    <div className="public">
      <main id="main" className="public-card" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
