import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { principalOf } from '../core/http/access.js';
import { errorResponses } from '../core/http/error-schema.js';
import { access } from '../core/identity/roles.js';
import { IngestBody, IngestResult, SessionParams, SessionRepositoryBody, SessionRepositoryQuery } from './schemas.js';
import type { TelemetryService } from './service.js';

export const telemetryRoutes: FastifyPluginAsyncTypebox<{ telemetry: TelemetryService }> = async (app, { telemetry }) => {
  app.post(
    '/api/v1/telemetry/events',
    {
      config: { access: access.anyone, scope: 'telemetry:write', rateClass: 'ingest' },
      schema: {
        operationId: 'telemetry.ingest',
        tags: ['telemetry'],
        summary: 'Ingest a batch of 1 to 1000 agent events, atomically and idempotently by event id',
        body: IngestBody,
        response: { 202: IngestResult, ...errorResponses(400, 401, 403, 413, 415) },
      },
    },
    async (request, reply) => reply.code(202).send(await telemetry.ingest(principalOf(request), request.body.events)),
  );
  app.put(
    '/api/v1/telemetry/sessions/:sessionId/repository',
    {
      config: { access: access.anyone, scope: 'sessions:attribute', rateClass: 'ingest' },
      schema: {
        operationId: 'telemetry.sessionRepository',
        tags: ['telemetry'],
        summary:
          "Record the repository of one of the caller's sessions, or a named user's (the SessionStart hook of orgctl connect); its usage so far moves to it",
        params: SessionParams,
        querystring: SessionRepositoryQuery,
        body: SessionRepositoryBody,
        response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await telemetry.attributeSession(principalOf(request), request.params.sessionId, request.body, request.query.email);
      return reply.code(204).send(null);
    },
  );
};
