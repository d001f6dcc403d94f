import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, createRoute, Outlet, redirect } from '@tanstack/react-router';
import { ApiFailure, sessionQuery } from './api.js';
import { NotFoundPage } from './shell/not-found.js';
import { Shell } from './shell/shell.js';
import { ErrorNote } from './ui/parts.js';

/** What every route's beforeLoad and loader get: the app's one query cache. */
export interface RouterContext {
  queryClient: QueryClient;
}

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: NotFoundPage,
});

/**
 * The signed-in pages. The gate is before any of them loads: the session is read (or taken from
 * the cache), and without one the app goes to the sign-in page.
 */
export const shellRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'shell',
  beforeLoad: async ({ context }) => {
    try {
      await context.queryClient.ensureQueryData(sessionQuery);
    } catch (error) {
      if (error instanceof ApiFailure && error.status === 401) throw redirect({ to: '/login' });
      throw error;
    }
  },
  errorComponent: ({ error }) => <ErrorNote error={error} />,
  // An unknown address under a signed-in page (/analytics/nope) is said inside the frame.
  notFoundComponent: NotFoundPage,
  component: Shell,
});
