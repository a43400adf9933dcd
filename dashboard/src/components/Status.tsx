import type { ReactNode } from 'react';
import { ApiError, describeError } from '../api';

/** What a 404 from a list route means: the server side of that list is not there yet. */
export const NOT_OFFERED = 'This server does not offer this list to the dashboard yet.';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="status-loading" role="status">
      <span className="spinner" aria-hidden="true" /> {label}
    </p>
  );
}

interface ErrorProps {
  error: unknown;
  onRetry?(): void;
  /** What a 404 means here: for a list, usually that this server does not offer it yet. */
  notFound?: string;
}

export function ErrorMessage({ error, onRetry, notFound }: ErrorProps) {
  const message = notFound && error instanceof ApiError && error.status === 404 ? notFound : describeError(error);
  return (
    <div className="notice notice-error" role="alert">
      <p>{message}</p>
      {onRetry && (
        <button type="button" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** The alert under a form whose submit failed: it names the fields to look at (form-errors.ts). */
export function FormAlert({ summary }: { summary: string | null }) {
  if (summary === null) return null;
  return (
    <div className="notice notice-error" role="alert">
      <p>{summary}</p>
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

export function Badge({ tone, children }: { tone: 'good' | 'warn' | 'bad' | 'neutral'; children: ReactNode }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}
