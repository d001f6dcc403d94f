import { Link, Navigate, Outlet } from '@tanstack/react-router';
import { useSuspenseQuery } from '@tanstack/react-query';
import { ApiFailure, isManager, sessionQuery } from '../api.js';

interface NavItem {
  to: string;
  label: string;
  managers?: boolean;
  owners?: boolean;
  /** Not shown to guests (the page's API answers them 403). */
  members?: boolean;
}

/** Every area of the app; members and guests do not see the pages only owners and managers may use, guests not those for members. */
const AREAS: NavItem[] = [
  { to: '/', label: 'Overview' },
  { to: '/usage', label: 'My usage' },
  { to: '/alerts', label: 'Alerts' },
  { to: '/analytics', label: 'Analytics', managers: true },
  { to: '/readiness', label: 'Readiness' },
  { to: '/computers', label: 'Computers' },
  { to: '/ci', label: 'CI automation' },
];
const SETTINGS: NavItem[] = [
  { to: '/settings/members', label: 'Members', managers: true },
  { to: '/settings/api-keys', label: 'API keys' },
  { to: '/settings/teams', label: 'Teams', members: true },
  { to: '/settings/service-accounts', label: 'Service accounts', managers: true },
  { to: '/settings/usage-limits', label: 'Usage limits', managers: true },
  { to: '/settings/sso', label: 'Single sign-on', owners: true },
  { to: '/settings/webhooks', label: 'Webhooks', managers: true },
  { to: '/settings/profile', label: 'Profile and sessions' },
];

function NavList({ items, role }: { items: NavItem[]; role: string }) {
  const shown = (i: NavItem) => (i.owners ? role === 'owner' : i.managers ? isManager(role) : i.members ? role !== 'guest' : true);
  return (
    <ul>
      {items.filter(shown).map((i) => (
        <li key={i.to}>
          <Link to={i.to} activeOptions={{ exact: i.to === '/' }} activeProps={{ className: 'active', 'aria-current': 'page' }}>
            {i.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** The frame of every signed-in page (the route's beforeLoad has read the session): who is signed in, the navigation, and the page. */
export function Shell() {
  const session = useSuspenseQuery(sessionQuery);
  const me = session.data;
  // A session that ends while the app is open (a role change, a sign-out elsewhere) is found on its next reading.
  if (session.error instanceof ApiFailure && session.error.status === 401) return <Navigate to="/login" />;
  return (
    <div className="shell">
      <header className="topbar">
        <span className="brand">orgctl</span>
        <span className="org">{me.organization.name}</span>
        <span className="who">
          <span data-testid="signed-in-as">{me.email ?? me.name}</span> <span className="role">{me.role}</span>
        </span>
        <Link to="/logout" className="signout">
          Sign out
        </Link>
      </header>
      <nav aria-label="Main" className="sidenav">
        <NavList items={AREAS} role={me.role} />
        <h2>Settings</h2>
        <NavList items={SETTINGS} role={me.role} />
      </nav>
      <main className="content">
        <Outlet />
      </main>
    </div>
  );
}
