import { queryOptions } from '@tanstack/react-query';
import { api, call } from '../api.js';

/** The organization's level and each repository's latest report (the overview reads the same entry). */
export const summaryQuery = queryOptions({
  queryKey: ['readiness', 'summary'],
  queryFn: () => call(api.GET('/api/organization/agent-readiness-summary')),
});

/** The readiness model: it changes with the service only. */
export const criteriaQuery = queryOptions({
  queryKey: ['readiness', 'criteria'],
  staleTime: Infinity,
  queryFn: () => call(api.GET('/api/organization/readiness-criteria')),
});

/** The newest `limit` reports of a repository. */
export const reportsQuery = (repoId: string, limit: number) =>
  queryOptions({
    queryKey: ['readiness', 'reports', repoId, limit],
    queryFn: () => call(api.GET('/api/organization/maturity-level-reports', { params: { query: { repoId, limit } } })),
  });
