import { Link } from '../../router';
import type { WorkspaceSummary } from '../../types';
import './second-factor.css';

/**
 * Shown instead of a workspace's screens while it requires a second factor and this member has none: every route
 * of the workspace answers them 403 until they set one up (docs/team.md, "Second factor").
 */
export function SecondFactorRequired({ workspace }: { workspace: WorkspaceSummary }) {
  return (
    <section className="second-factor-required" aria-labelledby="second-factor-required-title">
      <h1 id="second-factor-required-title">This workspace requires a second factor</h1>
      <p>
        The owner of <strong>{workspace.name}</strong> asks every member to sign in with a second factor as well as a
        password: a code from an authenticator app, or a passkey. Set one up under Account: it takes a minute, and this
        workspace opens as soon as it is on.
      </p>
      <p className="hint">Your other workspaces and your API keys are not affected.</p>
      <div className="actions actions-start">
        <Link to="/account" className="button-like button-like-primary">
          Set up two-factor authentication
        </Link>
      </div>
    </section>
  );
}
