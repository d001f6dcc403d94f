import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../core/http/access.js';
import { errorResponses } from '../core/http/error-schema.js';
import { access } from '../core/identity/roles.js';
import {
  Allowance,
  AllowanceQuery,
  AuditLog,
  AuditQuery,
  EnforcementPolicy,
  GlobalLimit,
  GlobalLimitBody,
  TeamBudgetBody,
  TeamBudgetParams,
  TeamBudgetResult,
  TeamBudgets,
  UserLimits,
  UserLimitsBody,
  UserLimitsResult,
} from './schemas.js';
import type { LimitsService } from './service.js';

const tags = ['usage limits'];

export const limitsRoutes: FastifyPluginAsyncTypebox<{ limits: LimitsService }> = async (app, { limits }) => {
  app.put(
    '/api/v0/organization/usage/limits/global',
    {
      config: { access: access.managers },
      schema: {
        operationId: 'limits.setGlobal',
        tags,
        summary: 'Set or remove the global per-user credits limit',
        body: GlobalLimitBody,
        response: { 200: GlobalLimit, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({ limit: await limits.setGlobal(principalOf(request), request.body.limit) }),
  );

  app.get(
    '/api/v0/organization/usage/limits/global',
    {
      config: { access: access.anyone },
      schema: {
        operationId: 'limits.getGlobal',
        tags,
        summary: 'Read the global per-user credits limit',
        response: { 200: GlobalLimit, ...errorResponses(401) },
      },
    },
    async (request) => ({ limit: await limits.getGlobal(principalOf(request).orgId) }),
  );

  app.get(
    '/api/v0/organization/usage/limits/users',
    {
      config: { access: access.anyone },
      schema: {
        operationId: 'limits.listUsers',
        tags,
        summary: 'Read the global limit and the individual overrides',
        response: { 200: UserLimits, ...errorResponses(401) },
      },
    },
    async (request) => limits.listUserLimits(principalOf(request).orgId),
  );

  app.put(
    '/api/v0/organization/usage/limits/users',
    {
      config: { access: access.managers },
      schema: {
        operationId: 'limits.setUsers',
        tags,
        summary: 'Set or remove individual overrides (1 to 100 users)',
        body: UserLimitsBody,
        response: { 200: UserLimitsResult, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => limits.setUserLimits(principalOf(request), request.body.users),
  );

  app.get(
    '/api/v0/organization/usage/limits/audit',
    {
      config: { access: access.managers },
      schema: {
        operationId: 'limits.audit',
        tags,
        summary: 'The audit log of limit changes, newest first',
        querystring: AuditQuery,
        response: { 200: AuditLog, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const rows = await limits.auditLog(principalOf(request).orgId, request.query);
      return {
        entries: rows.map((r) => ({
          id: r.id,
          actorId: r.actor_id,
          actorEmail: r.actor_email,
          scope: r.scope,
          targetEmail: r.target_email,
          targetTeamId: r.target_team_id,
          targetTeamName: r.target_team_name,
          oldLimit: r.old_limit,
          newLimit: r.new_limit,
          oldPolicy: r.old_policy,
          newPolicy: r.new_policy,
          changedAt: r.changed_at.getTime(),
        })),
      };
    },
  );

  app.get(
    '/api/v0/organization/usage/limits/teams',
    {
      config: { access: access.contributors },
      schema: {
        operationId: 'limits.listTeams',
        tags,
        summary: "The teams' monthly budgets, with what each team used this month",
        response: { 200: TeamBudgets, ...errorResponses(401, 403) },
      },
    },
    async (request) => ({ teams: await limits.teamBudgets(principalOf(request).orgId) }),
  );

  app.put(
    '/api/v0/organization/usage/limits/teams/:teamId',
    {
      config: { access: access.managers },
      schema: {
        operationId: 'limits.setTeam',
        tags,
        summary: "Set or remove a team's monthly budget",
        params: TeamBudgetParams,
        body: TeamBudgetBody,
        response: { 200: TeamBudgetResult, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => limits.setTeamBudget(principalOf(request), request.params.teamId, request.body.limit),
  );

  app.get(
    '/api/v0/usage/allowance',
    {
      config: { access: access.anyone, scope: 'allowance:read' },
      schema: {
        operationId: 'limits.allowance',
        tags,
        summary:
          "The caller's limit, usage, what remains in the current month (UTC) and the enforcement policy; owners and managers may name another user by id or email",
        querystring: AllowanceQuery,
        response: { 200: Allowance, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => limits.allowance(principalOf(request), { userId: request.query.user_id, email: request.query.email }),
  );

  app.get(
    '/api/v0/organization/usage/enforcement',
    {
      config: { access: access.anyone, scope: 'allowance:read' },
      schema: {
        operationId: 'limits.getEnforcement',
        tags,
        summary: "The organization's enforcement policy: what the client-side hook does near and at a limit",
        response: { 200: EnforcementPolicy, ...errorResponses(401) },
      },
    },
    async (request) => limits.getPolicy(principalOf(request).orgId),
  );

  app.put(
    '/api/v0/organization/usage/enforcement',
    {
      config: { access: access.managers },
      schema: {
        operationId: 'limits.setEnforcement',
        tags,
        summary: "Replace the organization's enforcement policy (audited with the limits)",
        body: EnforcementPolicy,
        response: { 200: EnforcementPolicy, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => limits.setPolicy(principalOf(request), request.body),
  );
};
