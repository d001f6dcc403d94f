import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { shellRoute } from '../root-routes.js';
import { activityQuery, productivityQuery, repositoriesByLevelQuery, repositoriesQuery, tokensByModelQuery, toolsQuery, userTotalsQuery } from './queries.js';
import { rangeSearch, resolveRange, type RangeSearch } from './range.js';
import { repositoriesSearch } from './repositories-search.js';
import { usersSearch } from './users-search.js';

/**
 * The analytics pages under the signed-in shell: /analytics/{credits,tools,activity,productivity,users,repositories}
 * and /analytics/users/$userId, all with the range in the URL (?days=N or ?from=&to=). Each page is
 * loaded on first visit; /analytics opens the credits page.
 *
 * A page's rows are asked for (its loader) as soon as its address is known, while the page's code
 * is still loading, instead of after it has mounted: one round trip off the first drawing. Not
 * awaited, so the page shows its own loading state and errors as before.
 */
const rangeDeps = ({ search }: { search: RangeSearch }): RangeSearch => ({ days: search.days, from: search.from, to: search.to, team: search.team });

export function analyticsRoutes() {
  const layout = createRoute({
    getParentRoute: () => shellRoute,
    path: '/analytics',
    validateSearch: rangeSearch,
    component: lazyRouteComponent(() => import('./analytics-layout.js'), 'AnalyticsLayout'),
  });
  const index = createRoute({
    getParentRoute: () => layout,
    path: '/',
    beforeLoad: ({ search }) => {
      throw redirect({ to: '/analytics/credits', search });
    },
  });
  const credits = createRoute({
    getParentRoute: () => layout,
    path: 'credits',
    loaderDeps: rangeDeps,
    loader: ({ deps, context }) => void context.queryClient.prefetchQuery(tokensByModelQuery(resolveRange(deps))),
    component: lazyRouteComponent(() => import('./credits-page.js'), 'CreditsPage'),
  });
  const tools = createRoute({
    getParentRoute: () => layout,
    path: 'tools',
    loaderDeps: rangeDeps,
    loader: ({ deps, context }) => void context.queryClient.prefetchQuery(toolsQuery(resolveRange(deps))),
    component: lazyRouteComponent(() => import('./tools-page.js'), 'ToolsPage'),
  });
  const activity = createRoute({
    getParentRoute: () => layout,
    path: 'activity',
    loaderDeps: rangeDeps,
    loader: ({ deps, context }) => void context.queryClient.prefetchQuery(activityQuery(resolveRange(deps))),
    component: lazyRouteComponent(() => import('./activity-page.js'), 'ActivityPage'),
  });
  const productivity = createRoute({
    getParentRoute: () => layout,
    path: 'productivity',
    loaderDeps: rangeDeps,
    loader: ({ deps, context }) => void context.queryClient.prefetchQuery(productivityQuery(resolveRange(deps))),
    component: lazyRouteComponent(() => import('./productivity-page.js'), 'ProductivityPage'),
  });
  const users = createRoute({
    getParentRoute: () => layout,
    path: 'users',
    validateSearch: usersSearch,
    loaderDeps: rangeDeps,
    loader: ({ deps, context }) => void context.queryClient.prefetchQuery(userTotalsQuery(resolveRange(deps))),
    component: lazyRouteComponent(() => import('./users-page.js'), 'UsersPage'),
  });
  const repositories = createRoute({
    getParentRoute: () => layout,
    path: 'repositories',
    validateSearch: repositoriesSearch,
    loaderDeps: ({ search }) => ({ ...rangeDeps({ search }), repo: search.repo }),
    loader: ({ deps, context }) => {
      void context.queryClient.prefetchQuery(repositoriesQuery(resolveRange(deps), deps.repo));
      void context.queryClient.prefetchQuery(repositoriesByLevelQuery(resolveRange(deps)));
    },
    component: lazyRouteComponent(() => import('./repositories-page.js'), 'RepositoriesPage'),
  });
  const user = createRoute({ getParentRoute: () => layout, path: 'users/$userId', component: lazyRouteComponent(() => import('./user-page.js'), 'UserPage') });
  return layout.addChildren([index, credits, tools, activity, productivity, users, repositories, user]);
}
