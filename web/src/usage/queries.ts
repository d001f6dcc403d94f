import { queryOptions } from '@tanstack/react-query';
import { api, call } from '../api.js';

/** Every allowance read (the caller's, a user's): a change of a limit invalidates them all. */
export const allowanceKey = ['allowance'] as const;

/** The allowance this month: the caller's own, or (owners and managers) `userId`'s. */
export const allowanceQuery = (userId?: string) =>
  queryOptions({
    queryKey: [...allowanceKey, userId ?? 'mine'],
    queryFn: () => call(api.GET('/api/v0/usage/allowance', userId ? { params: { query: { user_id: userId } } } : {})),
  });

/** The caller's own daily rows from `startDate` to `endDate`. */
export const dailyUsageQuery = (startDate: string, endDate: string) =>
  queryOptions({
    queryKey: ['usage', 'daily', startDate, endDate],
    queryFn: () => call(api.GET('/api/v0/usage/daily', { params: { query: { startDate, endDate } } })),
  });

/**
 * Today so far (UTC): the caller's usage and, for owners and managers, the organization's. Read
 * live from the rollups as events arrive, so it is asked again every 10 seconds while shown:
 * someone who has just connected an agent sees its first events arrive.
 */
export const todayQuery = queryOptions({
  queryKey: ['usage', 'today'],
  queryFn: () => call(api.GET('/api/v0/usage/today')),
  refetchInterval: 10_000,
});
