import { useEffect, useState } from 'react';

/**
 * Whether the media query matches now, following it as the window is resized or turned. Read when it changes,
 * never during a render: asking a query list whether it matches brings the page's style up to date first, and
 * the studio renders on every keystroke.
 */
export function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const list = window.matchMedia(query);
    const changed = () => setMatches(list.matches);
    changed();
    list.addEventListener('change', changed);
    return () => list.removeEventListener('change', changed);
  }, [query]);
  return matches;
}

/**
 * The element's border-box height in pixels, kept current as its content wraps onto more or fewer lines. A
 * callback ref, so an element that appears later (after a loading state) is measured too.
 */
export function useHeight(): { ref(element: HTMLElement | null): void; height: number } {
  const [element, setElement] = useState<HTMLElement | null>(null);
  const [height, setHeight] = useState(0);
  useEffect(() => {
    if (!element) return;
    const observer = new ResizeObserver(() => setHeight(Math.ceil(element.getBoundingClientRect().height)));
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return { ref: setElement, height };
}
