import { queryOptions, skipToken } from '@tanstack/react-query';
import type { paths } from '../../../src/client/openapi-types.js';
import { api, call, type Body } from '../api.js';

/** The days of a view, and the team it is narrowed to (`team_id`; the reports by team take it). */
type Range = { startDate: string; endDate: string; team_id?: string };
/** What the API is asked: the team only when there is one. */
const q = (r: Range) => ({ startDate: r.startDate, endDate: r.endDate, ...(r.team_id ? { team_id: r.team_id } : {}) });
/** The rows of each of a report's envelopes (one per grouping). */
type RowOf<P extends keyof paths> = Body<P, 'get'> extends infer B ? (B extends { data: (infer R)[] } ? R : never) : never;

export type TokensDayRow = Extract<RowOf<'/api/v1/analytics/tokens'>, { by_user: unknown }>;
export type ModelDayRow = Exclude<Extract<RowOf<'/api/v1/analytics/tokens'>, { group_key: string }>, { team_name: string }>;
export type TeamDayRow = Extract<RowOf<'/api/v1/analytics/tokens'>, { team_name: string }>;
export type ToolsDayRow = Extract<RowOf<'/api/v1/analytics/tools'>, { by_tool: unknown }>;
export type ActivityDayRow = Extract<RowOf<'/api/v1/analytics/activity'>, { weekly_active_users: number }>;
export type ProductivityDayRow = RowOf<'/api/v1/analytics/productivity'>;
export type UserTotalsRow = RowOf<'/api/v1/analytics/users/totals'>;
export type UserDayRow = RowOf<'/api/v1/analytics/users'>;

// A range's rows do not change under a page being read (data ends yesterday); keep them a while.
const staleTime = 5 * 60_000;

/** Credits and tokens per day over every user (the overview's month so far); no range, nothing to ask. */
export const tokensQuery = (r: Range | undefined) =>
  queryOptions({
    queryKey: ['analytics', 'tokens', 'day', r?.startDate, r?.endDate],
    staleTime,
    queryFn: r ? async () => (await call(api.GET('/api/v1/analytics/tokens', { params: { query: r } }))).data as TokensDayRow[] : skipToken,
  });

/** Credits and tokens per day and model: `group_by=model`, small where the day rows carry every user. */
export const tokensByModelQuery = (r: Range) =>
  queryOptions({
    queryKey: ['analytics', 'tokens', 'model', r.startDate, r.endDate, r.team_id],
    staleTime,
    queryFn: async () => (await call(api.GET('/api/v1/analytics/tokens', { params: { query: { ...q(r), group_by: 'model' } } }))).data as ModelDayRow[],
  });

/** Credits and tokens per day and team (`group_by=team`): each person in every team they belonged to that day. */
export const tokensByTeamQuery = (r: Range) =>
  queryOptions({
    queryKey: ['analytics', 'tokens', 'team', r.startDate, r.endDate, r.team_id],
    staleTime,
    queryFn: async () => (await call(api.GET('/api/v1/analytics/tokens', { params: { query: { ...q(r), group_by: 'team' } } }))).data as TeamDayRow[],
  });

export const toolsQuery = (r: Range) =>
  queryOptions({
    queryKey: ['analytics', 'tools', r.startDate, r.endDate],
    staleTime,
    queryFn: async () =>
      (await call(api.GET('/api/v1/analytics/tools', { params: { query: { startDate: r.startDate, endDate: r.endDate } } }))).data as ToolsDayRow[],
  });

export const activityQuery = (r: Range) =>
  queryOptions({
    queryKey: ['analytics', 'activity', r.startDate, r.endDate, r.team_id],
    staleTime,
    queryFn: async () => (await call(api.GET('/api/v1/analytics/activity', { params: { query: q(r) } }))).data as ActivityDayRow[],
  });

export const productivityQuery = (r: Range) =>
  queryOptions({
    queryKey: ['analytics', 'productivity', r.startDate, r.endDate],
    staleTime,
    queryFn: async () => (await call(api.GET('/api/v1/analytics/productivity', { params: { query: { startDate: r.startDate, endDate: r.endDate } } }))).data,
  });

export const userTotalsQuery = (r: Range) =>
  queryOptions({
    queryKey: ['analytics', 'users', 'totals', r.startDate, r.endDate, r.team_id],
    staleTime,
    queryFn: async () => (await call(api.GET('/api/v1/analytics/users/totals', { params: { query: q(r) } }))).data,
  });

/** One user's daily rows. */
export const userRowsQuery = (r: Range, userId: string) =>
  queryOptions({
    queryKey: ['analytics', 'users', 'rows', userId, r.startDate, r.endDate],
    staleTime,
    queryFn: async () => (await call(api.GET('/api/v1/analytics/users', { params: { query: { ...r, user_id: userId } } }))).data,
  });

export type RepositoryRow = RowOf<'/api/v1/analytics/repositories'>;
export type LevelRow = RowOf<'/api/v1/analytics/repositories/readiness'>;

/** Each repository's usage over the range, with its level on each day (`repository`: only that one). */
export const repositoriesQuery = (r: Range, repository?: string) =>
  queryOptions({
    queryKey: ['analytics', 'repositories', r.startDate, r.endDate, repository],
    staleTime,
    queryFn: async () =>
      (
        await call(
          api.GET('/api/v1/analytics/repositories', {
            params: { query: { startDate: r.startDate, endDate: r.endDate, ...(repository ? { repository } : {}) } },
          }),
        )
      ).data,
  });

/** Usage by the readiness level each repository had each day: does readiness pay? */
export const repositoriesByLevelQuery = (r: Range) =>
  queryOptions({
    queryKey: ['analytics', 'repositories', 'by-level', r.startDate, r.endDate],
    staleTime,
    queryFn: async () => await call(api.GET('/api/v1/analytics/repositories/readiness', { params: { query: { startDate: r.startDate, endDate: r.endDate } } })),
  });
