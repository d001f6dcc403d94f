import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { principalOf } from '../core/http/access.js';
import { errorResponses } from '../core/http/error-schema.js';
import { access } from '../core/identity/roles.js';
import type { AgentChannel } from './agent-channel.js';
import { ClaimBody, Computer, ClaimResult, CompleteBody, ComputerIdParams, HeartbeatBody, HeartbeatResult, RegisterBody, StepParams } from './schemas.js';
import { computerView } from './view.js';

const tags = ['computers: host agent'];
const ref = Type.Ref(Computer);
const DEFAULT_WAIT_MS = 25_000;

/** The extension endpoints `orgctl agent` uses on a byom computer (under its relayAgentUrl). */
export const agentRoutes: FastifyPluginAsyncTypebox<{ agentChannel: AgentChannel }> = async (app, { agentChannel: channel }) => {
  const config = { access: access.contributors };
  app.addHook('preClose', async () => channel.close());

  app.post(
    '/api/v0/computers/:computerId/agent/register',
    {
      config,
      schema: {
        operationId: 'computers.agentRegister',
        tags,
        summary: 'Register the host that runs this computer (completes connect-host)',
        params: ComputerIdParams,
        body: RegisterBody,
        response: { 200: ref, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => computerView(await channel.register(principalOf(request), request.params.computerId, request.body), request.publicUrl),
  );

  app.post(
    '/api/v0/computers/:computerId/agent/claim',
    {
      config,
      schema: {
        operationId: 'computers.agentClaim',
        tags,
        summary: 'Long poll: take the next step to run on this host, or {job: null} after waitMs',
        params: ComputerIdParams,
        body: ClaimBody,
        response: { 200: ClaimResult, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      // A poll whose agent hung up stops waiting and claims nothing.
      const gone = new AbortController();
      reply.raw.once('close', () => gone.abort());
      const job = await channel.claim(
        principalOf(request),
        request.params.computerId,
        request.body.hostId,
        request.body.waitMs ?? DEFAULT_WAIT_MS,
        gone.signal,
      );
      return { job };
    },
  );

  app.post(
    '/api/v0/computers/:computerId/agent/steps/:stepId/heartbeat',
    {
      config,
      schema: {
        operationId: 'computers.agentHeartbeat',
        tags,
        summary: 'Keep the lease of a running step and append output to its log',
        params: StepParams,
        body: HeartbeatBody,
        response: { 200: HeartbeatResult, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => ({ leaseExpiresAt: await channel.heartbeat(principalOf(request), request.params.computerId, request.params.stepId, request.body) }),
  );

  app.post(
    '/api/v0/computers/:computerId/agent/steps/:stepId/complete',
    {
      config,
      schema: {
        operationId: 'computers.agentComplete',
        tags,
        summary: 'Report the outcome of a step (and the last output)',
        params: StepParams,
        body: CompleteBody,
        response: { 200: ref, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) =>
      computerView(await channel.complete(principalOf(request), request.params.computerId, request.params.stepId, request.body), request.publicUrl),
  );
};
