import { useCallback, useMemo, type AnchorHTMLAttributes, type MouseEvent, type ReactNode } from 'react';
import { Router, useLocation, useSearch } from 'wouter';

/** Where the server mounts the app; every client-side route lives under it. */
export const BASE = '/dashboard';

interface Location {
  /** The path below BASE, always starting with `/`. */
  path: string;
  search: URLSearchParams;
}

interface RouterValue {
  location: Location;
  navigate(to: string, options?: { replace?: boolean }): void;
}

export function href(to: string): string {
  return `${BASE}${to}`;
}

// The path replaceAddress last set, until the shell has seen it (wouter reports every history change as a route
// change, its own or not).
let quietPath: string | null = null;

/**
 * Changes the address in place without it being a new page: the screen stays, and so does the focus (the studio
 * takes a new post's id on its first save while the writer goes on typing).
 */
export function replaceAddress(to: string): void {
  quietPath = to;
  window.history.replaceState(null, '', href(to));
}

/** Whether the location is one replaceAddress just set; the answer is given once. */
export function takeQuietChange(path: string): boolean {
  const quiet = quietPath === path;
  quietPath = null;
  return quiet;
}

/** wouter, under BASE: the routes themselves are `<Switch>`/`<Route>` (App.tsx). */
export function RouterProvider({ children }: { children: ReactNode }) {
  return <Router base={BASE}>{children}</Router>;
}

/** The location below BASE and a navigate that takes a path below it, with or without a query string. */
export function useRouter(): RouterValue {
  const [path, setLocation] = useLocation();
  // wouter's own copy of the query is decoded once already (decodeURI); the page's is read as it is, and
  // useSearch only makes this re-render when it changes.
  const search = useSearch();
  const navigate = useCallback(
    (to: string, { replace = false }: { replace?: boolean } = {}) => setLocation(to, { replace }),
    [setLocation],
  );
  return useMemo(
    () => ({
      location: { path: path || '/', search: new URLSearchParams(search === '' ? '' : window.location.search) },
      navigate,
    }),
    [path, search, navigate],
  );
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: string };

/** A real anchor (it opens in a new tab, shows its URL) that navigates in place on a plain click. */
export function Link({ to, onClick, ...rest }: LinkProps) {
  const { navigate } = useRouter();
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={href(to)} onClick={handle} {...rest} />;
}

/**
 * A screen's list state (page, filters, search) kept in the URL's query string: each change is a history entry,
 * so Back returns to the previous page or filter, and a reload or a shared link shows the same list. An empty
 * value leaves the URL.
 */
export function useSearchState<Name extends string>(
  names: readonly Name[],
): [Record<Name, string>, (changes: Partial<Record<Name, string>>) => void] {
  const { location, navigate } = useRouter();
  const values = Object.fromEntries(names.map((name) => [name, location.search.get(name) ?? ''])) as Record<
    Name,
    string
  >;
  const update = (changes: Partial<Record<Name, string>>) => {
    const next = new URLSearchParams(location.search);
    for (const [name, value] of Object.entries(changes) as Array<[string, string | undefined]>) {
      if (value) next.set(name, value);
      else next.delete(name);
    }
    const query = next.toString();
    // The same list again is not a step: Back should not have to walk through it twice.
    if (query === location.search.toString()) return;
    navigate(`${location.path}${query ? `?${query}` : ''}`);
  };
  return [values, update];
}
