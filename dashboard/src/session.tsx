import { createContext, useContext, type ReactNode } from 'react';
import type { Permission, Session, WorkspaceSummary } from './types';

export interface SessionValue {
  session: Session;
  /** Replaces the session after sign-in, setup or a password change (a new CSRF token comes with it). */
  setSession(session: Session | null): void;
  /** Reads the session again: the workspace list changes after a create, rename or transfer. */
  refresh(): Promise<void>;
}

const SessionContext = createContext<SessionValue | null>(null);

export function SessionProvider({ value, children }: { value: SessionValue; children: ReactNode }) {
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

/** The owner holds every permission whether or not the list spells them out. */
export function can(workspace: WorkspaceSummary, permission: Permission): boolean {
  return workspace.isOwner || workspace.permissions.includes(permission);
}

/** Whether the member may write drafts of posts or pages: `:write`, or the narrower `:draft` (docs/team.md). */
export function canDraft(workspace: WorkspaceSummary, resource: 'posts' | 'pages'): boolean {
  return can(workspace, `${resource}:write`) || can(workspace, `${resource}:draft`);
}

const LAST_WORKSPACE = 'quire.dashboard.workspace';

export function rememberWorkspace(id: string): void {
  try {
    window.localStorage.setItem(LAST_WORKSPACE, id);
  } catch {
    // Storage may be disabled; the first workspace is a fine default.
  }
}

export function preferredWorkspace(session: Session): WorkspaceSummary | null {
  let remembered: string | null = null;
  try {
    remembered = window.localStorage.getItem(LAST_WORKSPACE);
  } catch {
    remembered = null;
  }
  return session.workspaces.find((w) => w.id === remembered) ?? session.workspaces[0] ?? null;
}
