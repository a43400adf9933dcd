import { useEffect, useState } from 'react';
import { href } from '../../router';

const fromAddress = () => window.location.hash.slice(1).trim();

export interface LinkToken {
  token: string;
  /** Counts the links opened on this page: a screen keyed by it starts afresh for each, the same one again too. */
  opened: number;
}

/**
 * The token a mailed link carries after its `#` (a fragment never reaches a server, so no access log holds it).
 * It is taken out of the address bar once read, so that neither the history nor a screen shared later shows it;
 * a reload then has no token left, and the screen says to open the link again. A link opened over the page is
 * only a change of fragment, without a reload: it is read all the same.
 */
export function useLinkToken(path: string): LinkToken {
  const [link, setLink] = useState<LinkToken>(() => ({ token: fromAddress(), opened: 0 }));
  useEffect(() => {
    const take = (event?: Event) => {
      const token = fromAddress();
      if (!token) return;
      if (event) setLink((last) => ({ token, opened: last.opened + 1 }));
      window.history.replaceState(window.history.state, '', `${href(path)}${window.location.search}`);
    };
    take();
    window.addEventListener('hashchange', take);
    return () => window.removeEventListener('hashchange', take);
  }, [path]);
  return link;
}
