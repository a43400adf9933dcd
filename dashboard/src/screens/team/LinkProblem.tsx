import type { ReactNode } from 'react';
import { PublicFrame } from '../Public';

interface Props {
  title: string;
  /** What is wrong with the link, in the server's words when it said. */
  message: string;
  /** Where to go from here: links. */
  children: ReactNode;
}

/** The page of a mailed link that cannot be used (expired, used, withdrawn, cut short): why, and where to go. */
export function LinkProblem({ title, message, children }: Props) {
  return (
    <PublicFrame title={title}>
      <div className="notice notice-error" role="alert">
        <p>{message}</p>
      </div>
      <p className="public-links">{children}</p>
    </PublicFrame>
  );
}

/** A link opened without its token: the part after `#` was lost on the way (or the page was reloaded). */
export const INCOMPLETE =
  'This address holds no token: open the link from the mail again, whole (a mail client sometimes cuts it short).';
