import { createRoute, createRouter, lazyRouteComponent } from '@tanstack/react-router';
import { analyticsRoutes } from './analytics/routes.js';
import { queryClient } from './query-client.js';
import { rootRoute, shellRoute as shell } from './root-routes.js';
import { NotFoundPage } from './shell/not-found.js';

// Pages are loaded when first visited, so the first load carries only the frame and sign-in.
const setup = createRoute({
  getParentRoute: () => rootRoute,
  path: '/setup',
  component: lazyRouteComponent(() => import('./sign-in/setup-page.js'), 'SetupPage'),
});
const login = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  component: lazyRouteComponent(() => import('./sign-in/login-page.js'), 'LoginPage'),
});
const logout = createRoute({
  getParentRoute: () => rootRoute,
  path: '/logout',
  component: lazyRouteComponent(() => import('./sign-in/logout-page.js'), 'LogoutPage'),
});
const invite = createRoute({
  getParentRoute: () => rootRoute,
  path: '/invite/$token',
  component: lazyRouteComponent(() => import('./sign-in/invite-page.js'), 'InvitePage'),
});

const overview = createRoute({
  getParentRoute: () => shell,
  path: '/',
  component: lazyRouteComponent(() => import('./overview/overview-page.js'), 'OverviewPage'),
});
const usage = createRoute({
  getParentRoute: () => shell,
  path: '/usage',
  validateSearch: (s: Record<string, unknown>): { from?: string; to?: string } => ({
    from: typeof s.from === 'string' ? s.from : undefined,
    to: typeof s.to === 'string' ? s.to : undefined,
  }),
  component: lazyRouteComponent(() => import('./usage/my-usage-page.js'), 'MyUsagePage'),
});
const analytics = analyticsRoutes();
const readiness = createRoute({
  getParentRoute: () => shell,
  path: '/readiness',
  component: lazyRouteComponent(() => import('./readiness/readiness-page.js'), 'ReadinessPage'),
});
const readinessRepository = createRoute({
  getParentRoute: () => shell,
  path: '/readiness/repository',
  validateSearch: (s: Record<string, unknown>): { repo: string; report?: string } => ({
    repo: typeof s.repo === 'string' ? s.repo : '',
    report: typeof s.report === 'string' ? s.report : undefined,
  }),
  component: lazyRouteComponent(() => import('./readiness/repository-page.js'), 'RepositoryPage'),
});
const computers = createRoute({
  getParentRoute: () => shell,
  path: '/computers',
  component: lazyRouteComponent(() => import('./computers/computers-page.js'), 'ComputersPage'),
});
const computer = createRoute({
  getParentRoute: () => shell,
  path: '/computers/$computerId',
  component: lazyRouteComponent(() => import('./computers/computer-page.js'), 'ComputerPage'),
});
const ci = createRoute({ getParentRoute: () => shell, path: '/ci', component: lazyRouteComponent(() => import('./ci/ci-page.js'), 'CiPage') });
const members = createRoute({
  getParentRoute: () => shell,
  path: '/settings/members',
  component: lazyRouteComponent(() => import('./settings/members-page.js'), 'MembersPage'),
});
const apiKeys = createRoute({
  getParentRoute: () => shell,
  path: '/settings/api-keys',
  component: lazyRouteComponent(() => import('./settings/api-keys-page.js'), 'ApiKeysPage'),
});
const serviceAccounts = createRoute({
  getParentRoute: () => shell,
  path: '/settings/service-accounts',
  component: lazyRouteComponent(() => import('./settings/service-accounts-page.js'), 'ServiceAccountsPage'),
});
const usageLimits = createRoute({
  getParentRoute: () => shell,
  path: '/settings/usage-limits',
  component: lazyRouteComponent(() => import('./settings/usage-limits-page.js'), 'UsageLimitsPage'),
});
const limitsAudit = createRoute({
  getParentRoute: () => shell,
  path: '/settings/usage-limits/audit',
  component: lazyRouteComponent(() => import('./settings/limits-audit-page.js'), 'LimitsAuditPage'),
});
const teams = createRoute({
  getParentRoute: () => shell,
  path: '/settings/teams',
  component: lazyRouteComponent(() => import('./teams/teams-page.js'), 'TeamsPage'),
});
const sso = createRoute({
  getParentRoute: () => shell,
  path: '/settings/sso',
  component: lazyRouteComponent(() => import('./sso/sso-page.js'), 'SsoPage'),
});
const webhooks = createRoute({
  getParentRoute: () => shell,
  path: '/settings/webhooks',
  component: lazyRouteComponent(() => import('./webhooks/webhooks-page.js'), 'WebhooksPage'),
});
const alerts = createRoute({
  getParentRoute: () => shell,
  path: '/alerts',
  component: lazyRouteComponent(() => import('./alerts/alerts-page.js'), 'AlertsPage'),
});
const profile = createRoute({
  getParentRoute: () => shell,
  path: '/settings/profile',
  component: lazyRouteComponent(() => import('./settings/profile-page.js'), 'ProfilePage'),
});

// Any other address: the 404 page inside the frame, with the navigation (after the sign-in gate).
const notFound = createRoute({ getParentRoute: () => shell, path: '$', component: NotFoundPage });

const routeTree = rootRoute.addChildren([
  setup,
  login,
  logout,
  invite,
  shell.addChildren([
    overview,
    usage,
    analytics,
    readiness,
    readinessRepository,
    computers,
    computer,
    ci,
    members,
    apiKeys,
    serviceAccounts,
    usageLimits,
    limitsAudit,
    teams,
    sso,
    webhooks,
    alerts,
    profile,
    notFound,
  ]),
]);

export const router = createRouter({ routeTree, context: { queryClient }, defaultPreload: 'intent' });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
