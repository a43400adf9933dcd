import { useCallback, useEffect, useRef, useState } from 'react';

export type Async<T> =
  | { state: 'loading'; data: T | null; error: null }
  | { state: 'ready'; data: T; error: null }
  | { state: 'error'; data: T | null; error: unknown };

/**
 * Runs `load` whenever `deps` change and keeps the last data while reloading, so a list does not flash
 * empty between pages. A response that arrives after a newer request started is dropped.
 */
export function useAsync<T>(load: () => Promise<T>, deps: readonly unknown[]): Async<T> & { reload(): void } {
  const [result, setResult] = useState<Async<T>>({ state: 'loading', data: null, error: null });
  const [tick, setTick] = useState(0);
  const latest = useRef(0);

  useEffect(() => {
    const id = ++latest.current;
    setResult((previous) => ({ state: 'loading', data: previous.data, error: null }));
    load().then(
      (data) => id === latest.current && setResult({ state: 'ready', data, error: null }),
      (error: unknown) =>
        id === latest.current && setResult((previous) => ({ state: 'error', data: previous.data, error })),
    );
    // `load` is a fresh closure each render; `deps` say when it means something new.
  }, [...deps, tick]);

  // Loading from the same render as the change that asked for it (a dialog closing after a write), not one
  // render later when the effect runs: in between, the old data would read as current.
  const reload = useCallback(() => {
    setResult((previous) => ({ state: 'loading', data: previous.data, error: null }));
    setTick((n) => n + 1);
  }, []);
  return { ...result, reload };
}

/** A mutation's pending flag and error, for buttons that must not be pressed twice. */
export function useMutation<A extends unknown[], R>(run: (...args: A) => Promise<R>) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const execute = useCallback(
    async (...args: A): Promise<R | undefined> => {
      setPending(true);
      setError(null);
      try {
        return await run(...args);
      } catch (caught) {
        setError(caught);
        return undefined;
      } finally {
        setPending(false);
      }
    },
    [run],
  );
  return { execute, pending, error, setError };
}

/** Formats an ISO timestamp for people, in their locale and time zone. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** `<input type="datetime-local">` speaks local wall-clock time without a zone; the API speaks UTC ISO. */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
