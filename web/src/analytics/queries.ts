import { useQuery } from '@tanstack/react-query';
import { api, call, type Body } from '../api.js';

type Range = { startDate: string; endDate: string };
type RowOf<P extends keyof import('../../../src/client/openapi-types.js').paths> = Body<P, 'get'> extends { data: (infer R)[] } ? R : never;

export type ModelDayRow = Extract<RowOf<'/api/v1/analytics/tokens'>, { group_key: string }>;
export type ToolsDayRow = Extract<RowOf<'/api/v1/analytics/tools'>, { by_tool: unknown }>;
export type ActivityDayRow = Extract<RowOf<'/api/v1/analytics/activity'>, { weekly_active_users: number }>;
export type ProductivityDayRow = RowOf<'/api/v1/analytics/productivity'>;
export type UserTotalsRow = RowOf<'/api/v1/analytics/users/totals'>;
export type UserDayRow = RowOf<'/api/v1/analytics/users'>;

// A range's rows do not change under a page being read (data ends yesterday); keep them a while.
const staleTime = 5 * 60_000;

/** Credits and tokens per day and model: `group_by=model`, small where the day rows carry every user. */
export const tokensByModelQuery = (r: Range) => ({
  queryKey: ['analytics', 'tokens', 'model', r.startDate, r.endDate],
  staleTime,
  queryFn: async () => (await call(api.GET('/api/v1/analytics/tokens', { params: { query: { ...r, group_by: 'model' } } }))).data as ModelDayRow[],
});
export const useTokensByModel = (r: Range) => useQuery(tokensByModelQuery(r));

export const toolsQuery = (r: Range) => ({
  queryKey: ['analytics', 'tools', r.startDate, r.endDate],
  staleTime,
  queryFn: async () => (await call(api.GET('/api/v1/analytics/tools', { params: { query: r } }))).data as ToolsDayRow[],
});
export const useTools = (r: Range) => useQuery(toolsQuery(r));

export const activityQuery = (r: Range) => ({
  queryKey: ['analytics', 'activity', r.startDate, r.endDate],
  staleTime,
  queryFn: async () => (await call(api.GET('/api/v1/analytics/activity', { params: { query: r } }))).data as ActivityDayRow[],
});
export const useActivity = (r: Range) => useQuery(activityQuery(r));

export const productivityQuery = (r: Range) => ({
  queryKey: ['analytics', 'productivity', r.startDate, r.endDate],
  staleTime,
  queryFn: async () => (await call(api.GET('/api/v1/analytics/productivity', { params: { query: r } }))).data,
});
export const useProductivity = (r: Range) => useQuery(productivityQuery(r));

export const userTotalsQuery = (r: Range) => ({
  queryKey: ['analytics', 'users', 'totals', r.startDate, r.endDate],
  staleTime,
  queryFn: async () => (await call(api.GET('/api/v1/analytics/users/totals', { params: { query: r } }))).data,
});
export const useUserTotals = (r: Range, enabled = true) => useQuery({ ...userTotalsQuery(r), enabled });

export const useUserRows = (r: Range, userId: string) =>
  useQuery({
    queryKey: ['analytics', 'users', userId, r.startDate, r.endDate],
    staleTime,
    queryFn: async () => (await call(api.GET('/api/v1/analytics/users', { params: { query: { ...r, user_id: userId } } }))).data,
  });

export const useAllowanceOf = (userId: string) =>
  useQuery({ queryKey: ['allowance', userId], queryFn: () => call(api.GET('/api/v0/usage/allowance', { params: { query: { user_id: userId } } })) });
