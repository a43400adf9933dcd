import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactNode,
} from 'react';

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

const RouterContext = createContext<RouterValue | null>(null);

function readLocation(): Location {
  const { pathname, search } = window.location;
  const below = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname;
  return { path: below === '' ? '/' : below, search: new URLSearchParams(search) };
}

export function href(to: string): string {
  return `${BASE}${to}`;
}

export function RouterProvider({ children }: { children: ReactNode }) {
  const [location, setLocation] = useState(readLocation);

  useEffect(() => {
    const onPop = () => setLocation(readLocation());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  const navigate = useCallback((to: string, { replace = false } = {}) => {
    const target = href(to);
    if (replace) window.history.replaceState(null, '', target);
    else window.history.pushState(null, '', target);
    setLocation(readLocation());
  }, []);

  const value = useMemo(() => ({ location, navigate }), [location, navigate]);
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

export function useRouter(): RouterValue {
  const value = useContext(RouterContext);
  if (!value) throw new Error('useRouter outside RouterProvider');
  return value;
}

/** Matches `/w/:workspaceId/keys` style patterns; returns the named segments or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const have = path.split('/').filter(Boolean);
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i += 1) {
    const segment = want[i]!;
    const actual = have[i]!;
    if (segment.startsWith(':')) params[segment.slice(1)] = decodeURIComponent(actual);
    else if (segment !== actual) return null;
  }
  return params;
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
