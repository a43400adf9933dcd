import { useEffect, type ReactNode } from 'react';
import { Link } from '../router';

/** The frame of the screens shown without a workspace: setup, sign-in, not found. */
export function PublicFrame({ title, children }: { title: string; children: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Quire`;
  }, [title]);
  return (
    <div className="public">
      <header className="public-header">
        <span className="brand" aria-hidden="true">
          Quire
        </span>
      </header>
      <main id="main" className="public-card" tabIndex={-1}>
        <h1>{title}</h1>
        {children}
      </main>
    </div>
  );
}

export function NotFoundScreen() {
  return (
    <PublicFrame title="Page not found">
      <p>There is nothing at this address.</p>
      <p>
        <Link to="/">Go to the dashboard</Link>
      </p>
    </PublicFrame>
  );
}
