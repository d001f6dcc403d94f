import { Link, useRouterState } from '@tanstack/react-router';
import { Page } from '../ui/parts.js';
import './not-found.css';

/** An address that is no page of the app, inside the app's frame: the navigation stays, and ways on are offered. */
export function NotFoundPage() {
  const path = useRouterState({ select: (s) => s.location.pathname });
  return (
    <Page title="Page not found">
      <div className="card not-found" data-testid="not-found">
        <p className="not-found-code" aria-hidden="true">
          404
        </p>
        <p>
          There is no page at <code className="not-found-path">{path}</code>. The address may be mistyped, or the page may have moved.
        </p>
        <ul>
          <li>
            <Link to="/">Overview</Link>
          </li>
          <li>
            <Link to="/usage">My usage</Link>
          </li>
          <li>
            <Link to="/readiness">Readiness</Link>
          </li>
        </ul>
      </div>
    </Page>
  );
}
