import { queryOptions } from '@tanstack/react-query';
import { api, call } from '../api.js';

/** The pull requests opened from orgctl, newest first (100 at most). */
export const pullRequestsQuery = queryOptions({
  queryKey: ['ci', 'pull-requests'],
  queryFn: () => call(api.GET('/api/v0/automations/ci/pull-requests', { params: { query: { limit: 100 } } })),
});
