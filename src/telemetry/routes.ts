import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../core/http/access.js';
import { errorResponses } from '../core/http/error-schema.js';
import { access } from '../core/identity/roles.js';
import { IngestBody, IngestResult } from './schemas.js';
import type { TelemetryService } from './service.js';

export const telemetryRoutes: FastifyPluginAsyncTypebox<{ telemetry: TelemetryService }> = async (app, { telemetry }) => {
  app.post(
    '/api/v1/telemetry/events',
    {
      config: { access: access.anyone, rateClass: 'ingest' },
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
};
