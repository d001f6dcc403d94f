import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { principalOf } from '../core/http/access.js';
import { errorResponses } from '../core/http/error-schema.js';
import { access } from '../core/identity/roles.js';
import { CreateTeamBody, RenameTeamBody, SetMembersBody, Team, TeamIdParams, TeamList, TeamMemberParams } from './schemas.js';
import type { TeamsService } from './service.js';

const tags = ['teams'];
const ref = Type.Ref(Team);
const base = '/api/v0/organization/teams';

/**
 * Owners, managers and members read the teams and who is in them; owners and managers change
 * them. Guests read nothing: a guest is outside the organization's roster (docs/teams.md).
 */
export const teamsRoutes: FastifyPluginAsyncTypebox<{ teams: TeamsService }> = async (app, { teams }) => {
  app.addSchema(Team);
  const read = { access: access.contributors };
  const change = { access: access.managers };

  app.get(
    base,
    {
      config: read,
      schema: {
        operationId: 'teams.list',
        tags,
        summary: 'The teams of the organization and their members',
        response: { 200: TeamList, ...errorResponses(401, 403) },
      },
    },
    async (request) => ({ teams: await teams.list(principalOf(request).orgId) }),
  );

  app.post(
    base,
    {
      config: change,
      schema: {
        operationId: 'teams.create',
        tags,
        summary: 'Create a team, with members if given (owner or manager)',
        body: CreateTeamBody,
        response: { 201: ref, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await teams.create(principalOf(request), request.body)),
  );

  app.get(
    `${base}/:teamId`,
    {
      config: read,
      schema: {
        operationId: 'teams.get',
        tags,
        summary: 'A team and its members',
        params: TeamIdParams,
        response: { 200: ref, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => teams.get(principalOf(request).orgId, request.params.teamId),
  );

  app.patch(
    `${base}/:teamId`,
    {
      config: change,
      schema: {
        operationId: 'teams.rename',
        tags,
        summary: 'Rename a team (owner or manager)',
        params: TeamIdParams,
        body: RenameTeamBody,
        response: { 200: ref, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => teams.rename(principalOf(request), request.params.teamId, request.body.name),
  );

  app.delete(
    `${base}/:teamId`,
    {
      config: change,
      schema: {
        operationId: 'teams.delete',
        tags,
        summary: 'Delete a team: it leaves every list and its name is free again; its record stays, under the name it had, for the history (owner or manager)',
        params: TeamIdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await teams.delete(principalOf(request), request.params.teamId);
      return reply.code(204).send(null);
    },
  );

  app.put(
    `${base}/:teamId/members`,
    {
      config: change,
      schema: {
        operationId: 'teams.setMembers',
        tags,
        summary: "Replace a team's members with these users (owner or manager)",
        params: TeamIdParams,
        body: SetMembersBody,
        response: { 200: ref, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => teams.setMembers(principalOf(request), request.params.teamId, request.body.userIds),
  );

  app.put(
    `${base}/:teamId/members/:userId`,
    {
      config: change,
      schema: {
        operationId: 'teams.addMember',
        tags,
        summary: 'Add a user to a team; adding a member again changes nothing (owner or manager)',
        params: TeamMemberParams,
        response: { 200: ref, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => teams.addMember(principalOf(request), request.params.teamId, request.params.userId),
  );

  app.delete(
    `${base}/:teamId/members/:userId`,
    {
      config: change,
      schema: {
        operationId: 'teams.removeMember',
        tags,
        summary: 'Remove a user from a team; removing one who is not in it changes nothing (owner or manager)',
        params: TeamMemberParams,
        response: { 200: ref, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => teams.removeMember(principalOf(request), request.params.teamId, request.params.userId),
  );
};
