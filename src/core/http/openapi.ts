import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

export const API_VERSION = '0.1.0';

/** Registers OpenAPI generation from the route schemas, /openapi.json and the /docs browser. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'orgctl Organization Platform API',
        version: API_VERSION,
        description:
          'Usage limits, analytics, readiness reports, computers and CI automation for an AI coding agent. ' +
          'Every error body is the error object (detail, status, title, metadata, requestId).',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'An API key (ock_…) or a JWT access token.' },
        },
      },
      security: [{ bearer: [] }],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
  app.get('/openapi.json', { schema: { hide: true }, config: { access: 'public' } }, async () => openApiDocument(app));
}

/** The OpenAPI document with its keys sorted, as committed to the repository. */
export function openApiDocument(app: FastifyInstance): unknown {
  return sortKeys(app.swagger());
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}
