import { queryOptions } from '@tanstack/react-query';
import { api, ApiFailure, call } from '../api.js';

export const ssoKey = { config: ['sso'], events: ['sso-events'] } as const;

/** The configuration, or null while there is none (404). */
export const ssoConfigQuery = queryOptions({
  queryKey: ssoKey.config,
  queryFn: async () => {
    try {
      return await call(api.GET('/api/v0/organization/sso'));
    } catch (e) {
      if (e instanceof ApiFailure && e.status === 404) return null;
      throw e;
    }
  },
});

export const ssoEventsQuery = queryOptions({
  queryKey: ssoKey.events,
  queryFn: () => call(api.GET('/api/v0/organization/sso/events', { params: { query: { limit: 100 } } })),
});
