import { createRoute, lazyRouteComponent, redirect, type AnyRoute } from '@tanstack/react-router';
import { rangeSearch } from './range.js';
import { usersSearch } from './users-search.js';

/**
 * The analytics pages under the signed-in shell: /analytics/{credits,tools,activity,productivity,users}
 * and /analytics/users/$userId, all with the range in the URL (?days=N or ?from=&to=). Each page is
 * loaded on first visit; /analytics opens the credits page.
 */
export function analyticsRoutes<TShell extends AnyRoute>(shell: TShell) {
  const layout = createRoute({
    getParentRoute: () => shell,
    path: '/analytics',
    validateSearch: rangeSearch,
    component: lazyRouteComponent(() => import('./analytics-layout.js'), 'AnalyticsLayout'),
  });
  const index = createRoute({
    getParentRoute: () => layout,
    path: '/',
    beforeLoad: ({ search }) => {
      throw redirect({ to: '/analytics/credits', search: search as never });
    },
  });
  const credits = createRoute({ getParentRoute: () => layout, path: 'credits', component: lazyRouteComponent(() => import('./credits-page.js'), 'CreditsPage') });
  const tools = createRoute({ getParentRoute: () => layout, path: 'tools', component: lazyRouteComponent(() => import('./tools-page.js'), 'ToolsPage') });
  const activity = createRoute({ getParentRoute: () => layout, path: 'activity', component: lazyRouteComponent(() => import('./activity-page.js'), 'ActivityPage') });
  const productivity = createRoute({ getParentRoute: () => layout, path: 'productivity', component: lazyRouteComponent(() => import('./productivity-page.js'), 'ProductivityPage') });
  const users = createRoute({ getParentRoute: () => layout, path: 'users', validateSearch: usersSearch, component: lazyRouteComponent(() => import('./users-page.js'), 'UsersPage') });
  const user = createRoute({ getParentRoute: () => layout, path: 'users/$userId', component: lazyRouteComponent(() => import('./user-page.js'), 'UserPage') });
  return layout.addChildren([index, credits, tools, activity, productivity, users, user]);
}
