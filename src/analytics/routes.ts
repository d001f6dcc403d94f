import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { principalOf } from '../core/http/access.js';
import { errorResponses } from '../core/http/error-schema.js';
import { SerializedJson } from '../core/http/serialized-json.js';
import { access, isManagerRole } from '../core/identity/roles.js';
import {
  ActivityQuery,
  DailyUsageQuery,
  DailyUsageResponse,
  ActivityResponse,
  ProductivityQuery,
  ProductivityResponse,
  TokensQuery,
  TokensResponse,
  ToolsQuery,
  ToolsResponse,
  TodayUsageResponse,
  UsersQuery,
  UsersResponse,
  UserTotalsQuery,
  UserTotalsResponse,
} from './schemas.js';
import type { AnalyticsService } from './service.js';
import { ReadinessPaysResponse, RepositoriesQuery, RepositoriesResponse } from './repo-schemas.js';

const tags = ['analytics'];
const base = '/api/v1/analytics';
const config = { access: access.managers, rateClass: 'analytics' as const };
const failures = errorResponses(400, 401, 403);
/** The reports that take `team_id`: an unknown team is 404. */
const teamFailures = errorResponses(400, 401, 403, 404);

/** Kept rows go out as the bytes they are; the typed send() only knows the response object. */
function send<T>(reply: FastifyReply, out: T | SerializedJson): T | FastifyReply {
  if (!(out instanceof SerializedJson)) return out;
  return reply
    .type('application/json; charset=utf-8')
    .header('content-length', out.length)
    .send(out.stream() as never);
}

export const analyticsRoutes: FastifyPluginAsyncTypebox<{ analytics: AnalyticsService }> = async (app, { analytics }) => {
  app.get(
    `${base}/tokens`,
    {
      config,
      schema: {
        operationId: 'analytics.tokens',
        tags,
        summary: 'Standard Credits and tokens per day, by model and by user',
        querystring: TokensQuery,
        response: { 200: TokensResponse, ...teamFailures },
      },
    },
    async (request, reply) => send(reply, await analytics.tokens(principalOf(request).orgId, request.query)),
  );
  app.get(
    `${base}/tools`,
    {
      config,
      schema: {
        operationId: 'analytics.tools',
        tags,
        summary: 'Tool, MCP, skill, slash command and hook use and autonomy per day',
        querystring: ToolsQuery,
        response: { 200: ToolsResponse, ...failures },
      },
    },
    async (request, reply) => send(reply, await analytics.tools(principalOf(request).orgId, request.query)),
  );
  app.get(
    `${base}/activity`,
    {
      config,
      schema: {
        operationId: 'analytics.activity',
        tags,
        summary: 'Daily, weekly and monthly active users, sessions and messages per day',
        querystring: ActivityQuery,
        response: { 200: ActivityResponse, ...teamFailures },
      },
    },
    async (request) => analytics.activity(principalOf(request).orgId, request.query),
  );
  app.get(
    `${base}/productivity`,
    {
      config,
      schema: {
        operationId: 'analytics.productivity',
        tags,
        summary: 'Files created and edited, languages, commits and pull requests per day',
        querystring: ProductivityQuery,
        response: { 200: ProductivityResponse, ...failures },
      },
    },
    async (request, reply) => send(reply, await analytics.productivity(principalOf(request).orgId, request.query)),
  );
  app.get(
    `${base}/users`,
    {
      config,
      schema: {
        operationId: 'analytics.users',
        tags,
        summary: 'Per-user daily metrics, a page of users at a time',
        querystring: UsersQuery,
        response: { 200: UsersResponse, ...teamFailures },
      },
    },
    async (request, reply) => send(reply, await analytics.users(principalOf(request).orgId, request.query)),
  );
  app.get(
    `${base}/users/totals`,
    {
      config,
      schema: {
        operationId: 'analytics.userTotals',
        tags,
        summary: 'Every user of the organization with their sums over the range, active or not',
        querystring: UserTotalsQuery,
        response: { 200: UserTotalsResponse, ...teamFailures },
      },
    },
    async (request) => analytics.userTotals(principalOf(request).orgId, request.query),
  );
  app.get(
    `${base}/repositories`,
    {
      config,
      schema: {
        operationId: 'analytics.repositories',
        tags,
        summary: "Each repository's credits, tokens, sessions, people, commits and pull requests over the range, with its readiness level each day",
        querystring: RepositoriesQuery,
        response: { 200: RepositoriesResponse, ...failures },
      },
    },
    async (request) => analytics.repositories.report(principalOf(request).orgId, request.query),
  );
  app.get(
    `${base}/repositories/readiness`,
    {
      config,
      schema: {
        operationId: 'analytics.repositoriesByLevel',
        tags,
        summary: 'Readiness pays? Credits per merged pull request, sessions per pull request and tool error rate by readiness level',
        querystring: RepositoriesQuery,
        response: { 200: ReadinessPaysResponse, ...failures },
      },
    },
    async (request) => analytics.repositories.byLevel(principalOf(request).orgId, request.query),
  );
  app.get(
    '/api/v0/usage/daily',
    {
      config: { access: access.anyone },
      schema: {
        operationId: 'usage.daily',
        tags: ['usage'],
        summary: "The caller's own daily usage (the rows of /users for the caller alone), any role",
        querystring: DailyUsageQuery,
        response: { 200: DailyUsageResponse, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const p = principalOf(request);
      return send(reply, await analytics.ownDaily(p.orgId, p.id, request.query));
    },
  );
  app.get(
    '/api/v0/usage/today',
    {
      config: { access: access.anyone },
      schema: {
        operationId: 'usage.today',
        tags: ['usage'],
        summary: "Today so far (UTC), live: the caller's credits, tokens, sessions and tool calls; owners and managers also the organization's",
        response: { 200: TodayUsageResponse, ...errorResponses(401) },
      },
    },
    async (request) => {
      const p = principalOf(request);
      return analytics.today(p.orgId, p.id, isManagerRole(p.role));
    },
  );
};
