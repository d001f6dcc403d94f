import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { principalOf } from '../core/http/access.js';
import { errorResponses } from '../core/http/error-schema.js';
import { access } from '../core/identity/roles.js';
import {
  Computer,
  ComputerIdParams,
  ComputerList,
  ComputerNameParams,
  CreateComputerBody,
  InstallSession,
  ListQuery,
  SessionParams,
  StepDetail,
  StepParams,
  UpdateComputerBody,
} from './schemas.js';
import type { AgentChannel } from './agent-channel.js';
import { agentRoutes } from './agent-routes.js';
import type { ComputersService } from './service.js';
import { computerView } from './view.js';

const tags = ['computers'];
const ref = Type.Ref(Computer);

export const computersRoutes: FastifyPluginAsyncTypebox<{ computers: ComputersService; agentChannel: AgentChannel }> = async (
  app,
  { computers, agentChannel },
) => {
  app.addSchema(Computer);
  const config = { access: access.contributors };
  // A child context, so the agent's routes resolve the Computer schema added here.
  await app.register(agentRoutes, { agentChannel });

  app.post(
    '/api/v0/computers',
    {
      config,
      schema: {
        operationId: 'computers.create',
        tags,
        summary: 'Create a computer and start provisioning it',
        body: CreateComputerBody,
        response: { 201: ref, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(computerView(await computers.create(principalOf(request), request.body), request.publicUrl)),
  );

  app.get(
    '/api/v0/computers',
    {
      config,
      schema: {
        operationId: 'computers.list',
        tags,
        summary: 'List the computers the caller may see',
        querystring: ListQuery,
        response: { 200: ComputerList, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({ computers: (await computers.list(principalOf(request), request.query)).map((c) => computerView(c, request.publicUrl)) }),
  );

  app.get(
    '/api/v0/computers/:computerId',
    {
      config,
      schema: {
        operationId: 'computers.get',
        tags,
        summary: 'Read a computer',
        params: ComputerIdParams,
        response: { 200: ref, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => computerView(await computers.get(principalOf(request), { id: request.params.computerId }), request.publicUrl),
  );

  app.get(
    '/api/v0/computers/name/:name',
    {
      config,
      schema: {
        operationId: 'computers.getByName',
        tags,
        summary: 'Read a computer by its name',
        params: ComputerNameParams,
        response: { 200: ref, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => computerView(await computers.get(principalOf(request), { name: request.params.name }), request.publicUrl),
  );

  app.patch(
    '/api/v0/computers/:computerId',
    {
      config,
      schema: {
        operationId: 'computers.update',
        tags,
        summary: 'Rename a computer or change its host or remote user',
        params: ComputerIdParams,
        body: UpdateComputerBody,
        response: { 200: ref, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => computerView(await computers.update(principalOf(request), request.params.computerId, request.body), request.publicUrl),
  );

  app.delete(
    '/api/v0/computers/:computerId',
    {
      config,
      schema: {
        operationId: 'computers.delete',
        tags,
        summary: "Delete a computer and release its provider's resources",
        params: ComputerIdParams,
        response: { 204: { type: 'null', description: 'Deleted' }, ...errorResponses(401, 403, 404, 502) },
      },
    },
    async (request, reply) => {
      await computers.delete(principalOf(request), request.params.computerId);
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/v0/computers/:computerId/install-deps',
    {
      config,
      schema: {
        operationId: 'computers.installDeps',
        tags,
        summary: 'Start a fresh install session (409 while one is running)',
        params: ComputerIdParams,
        response: { 202: ref, ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request, reply) =>
      reply.code(202).send(computerView(await computers.installDeps(principalOf(request), request.params.computerId), request.publicUrl)),
  );

  app.get(
    '/api/v0/computers/:computerId/install-sessions/:sessionId',
    {
      config,
      schema: {
        operationId: 'computers.getInstallSession',
        tags,
        summary: 'Read an install session: status, exit code, times and log',
        params: SessionParams,
        response: { 200: InstallSession, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => computers.session(principalOf(request), request.params.computerId, request.params.sessionId),
  );

  app.get(
    '/api/v0/computers/:computerId/provisioning-steps/:stepId',
    {
      config,
      schema: {
        operationId: 'computers.getStep',
        tags,
        summary: 'Read a provisioning step with the tail of its output',
        params: StepParams,
        response: { 200: StepDetail, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => computers.step(principalOf(request), request.params.computerId, request.params.stepId),
  );
};
