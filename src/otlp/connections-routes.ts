import type { FastifyPluginAsync } from 'fastify';
import { principalOf } from '../core/http/access.js';
import { errorResponses } from '../core/http/error-schema.js';
import { access } from '../core/identity/roles.js';
import { Connections } from './schemas.js';
import type { OtlpService } from './service.js';

/** GET /api/v0/usage/connections: which agent clients' exports reached orgctl for the caller, and when (orgctl connect --status). */
export const connectionsRoutes: FastifyPluginAsync<{ otlp: OtlpService }> = async (app, { otlp }) => {
  app.get(
    '/api/v0/usage/connections',
    {
      config: { access: access.anyone },
      schema: {
        operationId: 'otlp.connections',
        tags: ['otlp'],
        summary: "When the caller's records last arrived over OTLP from each agent client",
        response: { 200: Connections, ...errorResponses(401) },
      },
    },
    async (request) => otlp.connections(principalOf(request)),
  );
};
