import { createRoute, lazyRouteComponent, redirect, type AnyRoute } from '@tanstack/react-router';
import { queryClient } from '../query-client.js';
import { activityQuery, productivityQuery, tokensByModelQuery, toolsQuery, userTotalsQuery } from './queries.js';
import { rangeSearch, resolveRange, type RangeSearch } from './range.js';
import { usersSearch } from './users-search.js';

/**
 * The analytics pages under the signed-in shell: /analytics/{credits,tools,activity,productivity,users}
 * and /analytics/users/$userId, all with the range in the URL (?days=N or ?from=&to=). Each page is
 * loaded on first visit; /analytics opens the credits page.
 */
type RangeQuery = (r: { startDate: string; endDate: string }) => Parameters<typeof queryClient.prefetchQuery>[0];

/**
 * A page's rows are asked for as soon as its address is known, while the page's code is still
 * loading, instead of after it has mounted: one round trip off the first drawing. Not awaited, so
 * the page shows its own loading state and errors as before.
 */
const prefetch = (query: RangeQuery) => ({
  loaderDeps: ({ search }: { search: RangeSearch }) => ({ days: search.days, from: search.from, to: search.to }),
  loader: ({ deps }: { deps: RangeSearch }) => {
    void queryClient.prefetchQuery(query(resolveRange(deps)));
  },
});

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
  const credits = createRoute({
    getParentRoute: () => layout,
    path: 'credits',
    ...prefetch(tokensByModelQuery),
    component: lazyRouteComponent(() => import('./credits-page.js'), 'CreditsPage'),
  });
  const tools = createRoute({
    getParentRoute: () => layout,
    path: 'tools',
    ...prefetch(toolsQuery),
    component: lazyRouteComponent(() => import('./tools-page.js'), 'ToolsPage'),
  });
  const activity = createRoute({
    getParentRoute: () => layout,
    path: 'activity',
    ...prefetch(activityQuery),
    component: lazyRouteComponent(() => import('./activity-page.js'), 'ActivityPage'),
  });
  const productivity = createRoute({
    getParentRoute: () => layout,
    path: 'productivity',
    ...prefetch(productivityQuery),
    component: lazyRouteComponent(() => import('./productivity-page.js'), 'ProductivityPage'),
  });
  const users = createRoute({
    getParentRoute: () => layout,
    path: 'users',
    validateSearch: usersSearch,
    ...prefetch(userTotalsQuery),
    component: lazyRouteComponent(() => import('./users-page.js'), 'UsersPage'),
  });
  const user = createRoute({ getParentRoute: () => layout, path: 'users/$userId', component: lazyRouteComponent(() => import('./user-page.js'), 'UserPage') });
  return layout.addChildren([index, credits, tools, activity, productivity, users, user]);
}
